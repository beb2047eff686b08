// The peer gateways of a run (Portkey, LiteLLM): installed once per machine, started per case.
import { log } from './options.mjs';
import { ensureLitellm, litellmCase, litellmVersions, startLitellm } from '../peers/litellm.mjs';
import { ensurePortkey, portkeyCase, portkeyVersions, startPortkey } from '../peers/portkey.mjs';

let installed = null;
/** Installs the peers that are missing (once per run) and says which are available. */
export function ensurePeers() {
  if (installed) return installed;
  const portkey = ensurePortkey();
  const litellm = ensureLitellm();
  installed = { portkey, litellm, versions: { portkey: portkey ? portkeyVersions() : null, litellm: litellm ? litellmVersions() : null } };
  return installed;
}

/** Starts every available peer; returns their processes and the load cases that call them. */
export async function startPeers(mock) {
  const have = ensurePeers();
  const out = { processes: [], cases: {} };
  if (have.portkey) {
    const p = await startPortkey(have.portkey);
    out.processes.push(p);
    out.cases.portkey = portkeyCase(p, mock);
  }
  if (have.litellm) {
    try {
      const p = await startLitellm(have.litellm, mock.url);
      out.processes.push(p);
      out.cases.litellm = litellmCase(p, mock);
    } catch (error) {
      log(`LiteLLM did not start; its cases are skipped: ${error.message}`);
    }
  }
  return out;
}
