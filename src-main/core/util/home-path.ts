import os from 'node:os';
import path from 'node:path';
import { HOME_PATH } from '../../../src-shared/contract/safe-strings';

/** `~/footage` -> `/home/ed/footage`: a typed path from the home folder, which only main knows. Other paths as they are. */
export function expandHome(p: string, home: string = os.homedir()): string {
  return HOME_PATH.test(p) ? path.join(home, p.slice(1)) : p;
}
