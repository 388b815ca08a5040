import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * The sound's level, so an editor sees there is audio before they hear it: RMS of the element's
 * output through a Web Audio analyser, in dBFS, -60 (bottom) to 0. The element's sound goes on to
 * the speakers through the same graph. An element can feed one graph only, hence the module map.
 */
const graphs = new WeakMap<HTMLVideoElement, { ctx: AudioContext; analyser: AnalyserNode }>();

/**
 * Builds (once) and resumes the element's audio graph. Call it from the user's key press or click
 * that starts playback: an AudioContext created or resumed outside a gesture stays suspended, and
 * a suspended graph would silence the element it took over.
 */
export function startAudioGraph(video: HTMLVideoElement): void {
  const g = graphFor(video);
  if (g && g.ctx.state === 'suspended') void g.ctx.resume();
}

function graphFor(video: HTMLVideoElement): { ctx: AudioContext; analyser: AnalyserNode } | null {
  const known = graphs.get(video);
  if (known) return known;
  try {
    const ctx = new AudioContext();
    const source = ctx.createMediaElementSource(video);
    const analyser = ctx.createAnalyser();
    analyser.fftSize = 2048;
    source.connect(analyser);
    analyser.connect(ctx.destination);
    const g = { ctx, analyser };
    graphs.set(video, g);
    return g;
  } catch {
    return null;
  }
}

export function LevelMeter({ video, hasAudio, muted }: { video: HTMLVideoElement | null; hasAudio: boolean; muted: boolean }): ReactNode {
  const [db, setDb] = useState(-Infinity);
  const peak = useRef(-Infinity);
  useEffect(() => {
    if (!video || !hasAudio) return;
    let raf = 0;
    let graph: ReturnType<typeof graphFor> = null;
    const buf = new Float32Array(2048);
    const tick = () => {
      raf = requestAnimationFrame(tick);
      // The graph exists once playback was started by the user (startAudioGraph).
      graph ??= graphs.get(video) ?? null;
      if (!graph) return;
      graph.analyser.getFloatTimeDomainData(buf);
      let sum = 0;
      for (const v of buf) sum += v * v;
      const level = 10 * Math.log10(sum / buf.length || 1e-12);
      peak.current = Math.max(level, peak.current - 0.5);
      setDb(Math.round(peak.current));
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [video, hasAudio]);
  if (!hasAudio) return <div className="level-meter none muted" data-testid="level-meter" data-db="none" title="This clip has no sound">no audio</div>;
  const pct = Number.isFinite(db) ? Math.max(0, Math.min(100, ((db + 60) / 60) * 100)) : 0;
  return (
    <div className={`level-meter${muted ? ' muted-meter' : ''}`} data-testid="level-meter" data-db={Number.isFinite(db) ? db : '-inf'} title={`${muted ? 'muted · ' : ''}level ${Number.isFinite(db) ? `${db} dBFS` : 'silent'}`}>
      <div className="level-fill" style={{ height: `${pct}%` }} />
    </div>
  );
}
