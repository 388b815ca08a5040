import type { ReactNode } from 'react';
import type { Result } from '../../../../src-shared/contract';
import type { ClipDetail } from '../../../../src-shared/contract/library';
import { frameToSeconds, type FrameRate } from '../../../../src-shared/timecode';

type Spans = Result<'search.clipTags'>['spans'];

/**
 * Under the picture: the shots (transitions hatched), the indexed segments, the In/Out band and
 * the playhead, on one time axis. A click anywhere seeks there.
 */
export function ViewerTimeline({ clip, spans, now, rate, inFrame, outFrame, onSeek }: {
  clip: ClipDetail;
  spans: Spans;
  now: number;
  rate: FrameRate;
  inFrame: number | null;
  outFrame: number | null;
  onSeek: (seconds: number) => void;
}): ReactNode {
  const duration = clip.durationS ?? Math.max(0, ...clip.shots.map((s) => s.endS));
  if (!duration) return null;
  const pct = (s: number) => `${(Math.max(0, Math.min(duration, s)) / duration) * 100}%`;
  const width = (a: number, b: number) => `${(Math.max(0, Math.min(duration, b) - Math.max(0, a)) / duration) * 100}%`;
  const seek = (e: React.MouseEvent<HTMLDivElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    onSeek(((e.clientX - r.left) / r.width) * duration);
  };
  const inS = inFrame === null ? null : frameToSeconds(inFrame, rate);
  const outS = outFrame === null ? null : frameToSeconds(outFrame, rate);
  const indexed = spans.filter((s) => s.segmentId !== null);
  return (
    <div className="viewer-timeline" onClick={seek} data-testid="viewer-timeline" role="presentation">
      <div className="vt-row vt-shots" aria-label="Shots">
        {clip.shots.map((s) => (
          <div
            key={s.id}
            className={`vt-shot${now >= s.startS && now < s.endS ? ' current' : ''}`}
            style={{ left: pct(s.startS), width: width(s.startS, s.endS) }}
            title={`Shot ${s.idx + 1}`}
            data-shot={s.idx + 1}
          />
        ))}
        {/* A dissolve or fade spans the boundary (its middle): drawn across both shots, hatched. */}
        {clip.shots.map((s) =>
          s.transition && s.transition.kind !== 'cut' ? (
            <span
              key={`t${s.id}`}
              className="vt-transition"
              title={`${s.transition.kind} into shot ${s.idx + 1}`}
              data-transition-into={s.idx + 1}
              style={{ left: pct(s.transition.startS), width: width(s.transition.startS, s.transition.endS) }}
            />
          ) : null,
        )}
      </div>
      <div className="vt-row vt-segments" aria-label="Indexed segments">
        {indexed.map((s) => (
          <div key={s.segmentId} className="vt-seg" style={{ left: pct(s.startS), width: width(s.startS, s.endS) }} />
        ))}
      </div>
      {inS !== null && <div className="vt-inout" style={{ left: pct(inS), width: width(inS, outS ?? duration) }} data-testid="vt-inout" />}
      <div className="vt-now" style={{ left: pct(now) }} />
    </div>
  );
}
