// The right-hand region: the latest sampled trajectory, turn by turn.
export function TrajectoryViewer() {
  return (
    <section
      className="trajectory-viewer region"
      data-testid="trajectory-viewer"
      aria-label="Trajectory viewer"
    >
      <h2>Trajectory</h2>
      <p className="empty-note">
        Sampled trajectories appear here during training, with each token coloured.
      </p>
    </section>
  );
}
