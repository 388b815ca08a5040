import type { Playback } from '../../../src-shared/contract/playback';
import type { NativePlayback } from './native-playback';

export interface PlaybackInputs {
  native: NativePlayback;
  /** The original's file is where it was catalogued, unchanged (its drive plugged in). */
  reachable: boolean;
  /** Why it is not, in the editor's words (null when reachable). */
  unreachableWhy: string | null;
  /** A clip added by URL: main streams it from its address (reachable: this workstation's rules read it), there is no file nor proxy. */
  remote: boolean;
  /** Frames of the proxy made from the current content, null without one. */
  proxyFrames: number | null;
  /** Settings want a proxy for the clip and its indexing has not written it yet. */
  proxyPending: boolean;
  /** The file has been probed: its codecs are known (a relinked or just imported file is not, for a moment). */
  probed: boolean;
}

/**
 * Which file the viewer plays: the original whenever the player decodes it and it is reachable
 * (a plugged-in original is always preferred, so one that comes back plays again at once), else
 * the proxy, else (the proxy still to be made from a reachable original) a preview stream made
 * from the original on demand, else nothing with the reason. A pure function of what the catalog and the disk say.
 */
export function playbackSource(i: PlaybackInputs): Playback {
  const proxy: Playback['proxy'] = i.proxyFrames !== null ? 'ready' : i.proxyPending ? 'pending' : 'none';
  const base = { offline: !i.reachable, proxy, proxyFrames: i.proxyFrames };
  if (i.reachable && (i.remote || i.native.ok)) return { ...base, source: 'original', why: null };
  const why = i.reachable ? (i.native.ok ? null : i.native.why) : i.unreachableWhy;
  if (i.proxyFrames !== null) return { ...base, source: 'proxy', why };
  // A file not probed yet (just imported or relinked) may well play as it is: nothing until its
  // codecs are known (the probe's catalog change asks again), rather than a stream the answer
  // after the probe would then refuse.
  if (!i.probed && !i.remote && i.reachable) return { ...base, source: 'none', why: 'it is being read; it plays once its format is known' };
  // Its proxy to come and the original there: a preview stream of the stretch watched meanwhile.
  if (proxy === 'pending' && i.reachable) return { ...base, source: 'stream', why: `${why ?? 'the original cannot be played'}; a preview stream plays until its proxy is made while it is indexed` };
  const waiting = proxy === 'pending' ? '; its proxy is made while it is indexed' : '';
  return { ...base, source: 'none', why: `${why ?? 'the original cannot be played'}${waiting}` };
}
