// Fused GELU (tanh approximation, GPT-2) for the webgpu backend, with gradient: the unfused
// transformer.ts gelu is pow, mul, add, mul, tanh, add, mul, mul (8 dispatches forward, ~16
// backward); this is one each way. With u = c·(x + a·x³), c = √(2/π), a = 0.044715:
//   y = ½·x·(1 + tanh u),  dy/dx = ½·(1 + tanh u) + ½·x·(1 − tanh² u)·c·(1 + 3a·x²).
// tanh is written as tfjs-webgpu writes it (stable for large |u|).
import * as tf from '@tensorflow/tfjs';
import { callKernel, flatProgram, registerOnce, runProgram } from './program.js';

const FORWARD = 'StarpoGelu';
const BACKWARD = 'StarpoGeluGrad';

const TANH = `
fn stableTanh(a : f32) -> f32 {
  let e2x = exp(-2.0 * abs(a));
  return sign(a) * (1.0 - e2x) / (1.0 + e2x);
}`;

const INNER = `
  let c = ${Math.sqrt(2 / Math.PI)};
  let xv = x[index];
  let th = stableTanh((xv + xv * xv * xv * 0.044715) * c);`;

/** Registers the two kernels for the webgpu backend (idempotent). */
export function registerGeluKernels(): void {
  registerOnce(FORWARD, ({ inputs, backend }) => {
    const x = inputs.x as tf.TensorInfo;
    const body = `
  if (index < uniforms.xShape) {${INNER}
    result[index] = xv * (th + 1.0) * 0.5;
  }`;
    const program = flatProgram('starpoGelu', ['x'], x.shape, body);
    const user = program.getUserCode;
    program.getUserCode = () => `${TANH}\n${user()}`;
    return runProgram(backend, program, [x]);
  });
  registerOnce(BACKWARD, ({ inputs, backend }) => {
    const x = inputs.x as tf.TensorInfo;
    const body = `
  if (index < uniforms.xShape) {${INNER}
    let du = c * (1.0 + 3.0 * 0.044715 * xv * xv);
    result[index] = dy[index] * (0.5 * (1.0 + th) + 0.5 * xv * (1.0 - th * th) * du);
  }`;
    const program = flatProgram('starpoGeluGrad', ['x', 'dy'], x.shape, body);
    const user = program.getUserCode;
    program.getUserCode = () => `${TANH}\n${user()}`;
    return runProgram(backend, program, [x, inputs.dy as tf.TensorInfo]);
  });
}

const gelu = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
  const [x, save] = args as [tf.Tensor, tf.GradSaveFunc];
  save([x]);
  return {
    value: callKernel(FORWARD, { x }),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => callKernel(BACKWARD, { x: saved[0] as tf.Tensor, dy }),
  };
});

/** GELU (tanh approximation) of `x`, any shape, differentiable. webgpu only. A new tensor. */
export function fusedGelu(x: tf.Tensor): tf.Tensor {
  registerGeluKernels();
  // Flat, so that one pipeline serves every shape (uniforms.xShape is the size).
  return (gelu(x.reshape([-1])) as tf.Tensor).reshape(x.shape);
}
