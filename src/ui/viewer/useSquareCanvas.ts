// A square canvas drawn at the screen's pixel density: the viewer's grid pictures (MiniGrid,
// FrozenLake, Sokoban) all draw through it.
import { type RefObject, useEffect, useRef } from 'react';

/** A ref for a `size`-pixel square canvas that `draw` repaints whenever `subject` or `size` changes. */
export function useSquareCanvas<T>(
  subject: T,
  size: number,
  draw: (ctx: CanvasRenderingContext2D, subject: T, size: number) => void,
): RefObject<HTMLCanvasElement | null> {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(size * dpr);
    canvas.height = Math.round(size * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size, size);
    draw(ctx, subject, size);
  }, [subject, size, draw]);
  return ref;
}
