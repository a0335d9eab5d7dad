// The centre region: live metric charts (filled by the training loop).
export function ChartsArea() {
  return (
    <main className="charts-area region" data-testid="charts-area" aria-label="Training charts">
      <h2>Charts</h2>
      <p className="empty-note">
        Start a run to see success, reward variance, entropy, KL and gradient norm here.
      </p>
    </main>
  );
}
