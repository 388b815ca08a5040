import type { ReactNode } from 'react';

export type FaceFrames = { timeS: number; faces: { x: number; y: number; w: number; h: number; score: number }[] }[];

/**
 * The faces the local analysis found, drawn over the picture for the sampled frame nearest the
 * playhead (within a second). Boxes are fractions of the picture; the video is letterboxed in its
 * element, so they are placed in the displayed picture's own rectangle.
 */
export function FaceBoxes({ frames, now, video }: { frames: FaceFrames; now: number; video: HTMLVideoElement | null }): ReactNode {
  if (!video || frames.length === 0 || !video.videoWidth) return null;
  let best: FaceFrames[number] | null = null;
  for (const f of frames) if (Math.abs(f.timeS - now) <= 1 && (!best || Math.abs(f.timeS - now) < Math.abs(best.timeS - now))) best = f;
  if (!best || best.faces.length === 0) return null;
  const ew = video.clientWidth;
  const eh = video.clientHeight;
  const scale = Math.min(ew / video.videoWidth, eh / video.videoHeight);
  const pw = video.videoWidth * scale;
  const ph = video.videoHeight * scale;
  const left = video.offsetLeft + (ew - pw) / 2;
  const top = video.offsetTop + (eh - ph) / 2;
  return (
    <>
      {best.faces.map((f, i) => (
        <div
          key={i}
          className="sv-face"
          data-testid="face-box"
          style={{ left: left + f.x * pw, top: top + f.y * ph, width: f.w * pw, height: f.h * ph }}
          title={`face ${Math.round(f.score * 100)}%`}
        />
      ))}
    </>
  );
}
