import type { EmulatorHandle } from '../../emulator/server';

/** The service's endpoints that read or receive a video (tensor uploads included). */
const VIDEO_ENDPOINTS = ['POST /video_embedding/encode_video', 'POST /video_embedding/encode_video/async', 'POST /video_tagging', 'POST /video_tagging/async', 'POST /files/upload/tensors'];

/**
 * How many calls about a video the emulator has received: what "before any call" is counted in.
 * Not its total, since the app also calls encode_text in the background (search's query bank).
 */
export function videoCalls(emu: EmulatorHandle): number {
  const by = emu.stats().byEndpoint;
  return VIDEO_ENDPOINTS.reduce((n, e) => n + (by[e]?.requests ?? 0), 0);
}
