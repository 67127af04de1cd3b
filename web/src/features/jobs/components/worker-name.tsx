// Worker processes named as a person finds them ("box · 4711"), wherever a table shows a
// worker's id. The page provides the workers it polls; the tables' columns stay constant.
import { createContext, useContext, type ReactNode } from 'react';
import type { WorkerProcess } from '../api/get-operations';
import { workerName } from './format';

const Workers = createContext<WorkerProcess[]>([]);

export function WorkersProvider({ workers, children }: { workers: WorkerProcess[]; children: ReactNode }) {
  return <Workers.Provider value={workers}>{children}</Workers.Provider>;
}

export function WorkerName({ id }: { id: string | null | undefined }) {
  return <span className="nowrap">{workerName(id, useContext(Workers))}</span>;
}
