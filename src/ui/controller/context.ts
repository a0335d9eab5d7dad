// The page's controller for the views: App provides the one it made, components take it with
// useController() (a component outside the provider is a programming error, said at once).
import { createContext, useContext } from 'react';
import type { Controller } from './controller.js';

export const ControllerContext = createContext<Controller | null>(null);

export function useController(): Controller {
  const c = useContext(ControllerContext);
  if (!c) throw new Error('useController outside <ControllerContext.Provider> (App provides it)');
  return c;
}
