import { useEffect, useState, type ReactNode } from 'react';
import type { TeamActivity, TeamCheckResult, TeamConnectionSettings, TeamStatus } from '../../../../src-shared/contract/team';
import type { AppError } from '../../../../src-shared/errors';
import { api } from '../../api/client';
import './team.css';

type Form = Omit<TeamConnectionSettings, 'port' | 'caCertificate'> & { port: string; caCertificate: string };

const EMPTY_FORM: Form = { host: '', port: '5432', database: 'reelscout_team', user: 'reelscout_seat', sslmode: 'verify-full', caCertificate: '', seatName: '' };

/** What a check says, in one line: the schema version it found, or the error's kind and what to do. */
function checkText(c: TeamCheckResult): string {
  return c.ok ? `Connected · team schema version ${c.schemaVersion ?? '?'}` : `${c.error?.kind ?? 'error'}: ${c.error?.message ?? 'failed'}`;
}

/** How the seat's share of the work stands, in one line. */
function activityText(a: TeamActivity): string {
  const parts = [`${a.clips} clip${a.clips === 1 ? '' : 's'} shared with the team`, `${a.indexedHere} indexed here`, `${a.fromOtherSeats} by other seats`];
  if (a.unpublished > 0) parts.push(`${a.unpublished} indexed here while the server was away, sent when it is back`);
  const state = a.held ? `Working on this catalog alone: ${a.held}` : a.online ? 'Online' : 'Team server unreachable: working on this catalog alone';
  return `${state} · ${parts.join(', ')}`;
}

/** The team's clips this seat cannot open, and what the editor can do about it. */
function notHereText(a: TeamActivity): string {
  const shares = a.notHereShares.length > 0 ? ` (on ${a.notHereShares.join(', ')})` : '';
  const clips = a.notHere === 1 ? "1 of the team's clips is" : `${a.notHere} of the team's clips are`;
  return `${clips} on a drive this workstation has not found${shares}. Import here any folder of that drive holding one of them: the others follow, already indexed.`;
}

/** The activity is re-read this often while the section is on screen. */
const ACTIVITY_EVERY_MS = 3000;

const fromForm = (f: Form): TeamConnectionSettings => ({
  host: f.host.trim(),
  port: Number(f.port),
  database: f.database.trim(),
  user: f.user.trim(),
  sslmode: f.sslmode,
  seatName: f.seatName,
  ...(f.sslmode === 'verify-full' && f.caCertificate.trim() ? { caCertificate: f.caCertificate.trim() } : {}),
});

/**
 * Settings' "Team library": solo by default; a form to check a team server and join it; once joined,
 * the server, this seat and the last check (the editor's Check again or the seat's own at each
 * reconnection), with Check again and Leave. The password is typed here and sent to main, which
 * keeps it in the secret store: no answer ever carries it back.
 */
export function TeamLibrarySection(): ReactNode {
  const [status, setStatus] = useState<TeamStatus | null>(null);
  const [form, setForm] = useState<Form>(EMPTY_FORM);
  const [password, setPassword] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [activity, setActivity] = useState<TeamActivity | null>(null);

  useEffect(() => {
    api
      .call('team.status', {})
      .then(setStatus)
      .catch((e: AppError) => setResult({ ok: false, text: `${e.kind}: ${e.message}` }));
  }, []);

  const joined = status?.mode === 'configured';
  useEffect(() => {
    if (!joined) return setActivity(null);
    let live = true;
    // The status too: its "Last check" is also the seat's own, at each reconnection and while held.
    const read = () =>
      void Promise.all([api.call('team.activity', {}), api.call('team.status', {})])
        .then(([a, s]) => {
          if (!live) return;
          setActivity(a);
          setStatus(s);
        })
        .catch(() => undefined);
    read();
    const timer = setInterval(read, ACTIVITY_EVERY_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [joined]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setResult(null);
    try {
      await work();
    } catch (e) {
      const err = e as AppError;
      setResult({ ok: false, text: `${err.kind}: ${err.message}` });
    } finally {
      setBusy(false);
    }
  };
  const tryForm = () =>
    run(async () => {
      const c = await api.call('team.check', { form: { settings: fromForm(form), password } });
      setResult({ ok: c.ok, text: checkText(c) });
    });
  const join = () =>
    run(async () => {
      setStatus(await api.call('team.configure', { settings: fromForm(form), password }));
      setPassword('');
    });
  const checkAgain = () =>
    run(async () => {
      await api.call('team.check', {});
      setStatus(await api.call('team.status', {}));
    });
  const leave = () =>
    run(async () => {
      setStatus(await api.call('team.leave', {}));
      setForm(EMPTY_FORM);
    });

  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm({ ...form, [k]: v });
  const resultLine = result && (
    <span className={`team-status ${result.ok ? 'ok-text' : 'error-text'}`} data-testid="team-result" role="status">
      {result.text}
    </span>
  );

  return (
    <section className="card" data-testid="team" aria-labelledby="team-heading">
      <h3 id="team-heading" style={{ marginTop: 0 }}>
        Team library
      </h3>
      {!status ? (
        <p className="muted">Loading…</p>
      ) : status.mode === 'configured' ? (
        <>
          <p className="muted" data-testid="team-mode">
            This workstation is the seat <strong>{status.settings.seatName}</strong> of the team library on {status.settings.user}@{status.settings.host}:{status.settings.port}/
            {status.settings.database} ({status.settings.sslmode === 'verify-full' ? 'TLS, certificate verified' : 'no TLS: this machine only'}).
          </p>
          <p className="muted">
            Each clip is indexed by one seat of the team (decoded, sent and billed once); the others copy its results into their own catalog, so search works here
            even when the server is away.
          </p>
          {activity && (
            <p className={`team-status ${activity.online && !activity.held ? 'ok-text' : 'error-text'}`} data-testid="team-activity" role="status">
              {activityText(activity)}
            </p>
          )}
          {activity && activity.notHere > 0 && (
            <p className="team-status muted" data-testid="team-not-here">
              {notHereText(activity)}
            </p>
          )}
          {status.lastCheck && (
            <p className={`team-status ${status.lastCheck.ok ? 'ok-text' : 'error-text'}`} data-testid="team-last-check" data-at={status.lastCheck.at}>
              Last check {new Date(status.lastCheck.at).toLocaleString()}: {checkText(status.lastCheck)}
            </p>
          )}
          <div className="row">
            <button className="btn" onClick={() => void checkAgain()} disabled={busy} data-action="team-check-again">
              Check again
            </button>
            <button className="btn" onClick={() => void leave()} disabled={busy} data-action="team-leave">
              Leave the team
            </button>
            {resultLine}
          </div>
        </>
      ) : (
        <>
          <p className="muted" data-testid="team-mode">
            Solo: this catalog is this machine&apos;s own. Joining connects to your team&apos;s PostgreSQL server, checks it is set up, and registers this workstation as a seat;
            leaving later keeps this catalog as it is.
          </p>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void join();
            }}
          >
            <div className="field">
              <label htmlFor="team-host">Server host</label>
              <input id="team-host" type="text" placeholder="db.studio.lan" autoComplete="off" value={form.host} onChange={(e) => set('host', e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="team-port">Port</label>
              <input id="team-port" type="number" min={1} max={65535} value={form.port} onChange={(e) => set('port', e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="team-database">Database</label>
              <input id="team-database" type="text" autoComplete="off" value={form.database} onChange={(e) => set('database', e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="team-user">User</label>
              <input id="team-user" type="text" autoComplete="off" value={form.user} onChange={(e) => set('user', e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="team-password">Password</label>
              <input id="team-password" type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="team-sslmode">TLS</label>
              <select id="team-sslmode" value={form.sslmode} onChange={(e) => set('sslmode', e.target.value as Form['sslmode'])}>
                <option value="verify-full">Verify the certificate (needed for another machine)</option>
                <option value="disable">No TLS (a server on this machine only)</option>
              </select>
            </div>
            {form.sslmode === 'verify-full' && (
              <div className="field">
                <label htmlFor="team-ca">Team CA certificate (PEM, optional)</label>
                <textarea id="team-ca" className="team-ca" placeholder="-----BEGIN CERTIFICATE-----" value={form.caCertificate} onChange={(e) => set('caCertificate', e.target.value)} />
              </div>
            )}
            <div className="field">
              <label htmlFor="team-seat">This seat&apos;s name</label>
              <input id="team-seat" type="text" placeholder="Edit bay 2" autoComplete="off" value={form.seatName} onChange={(e) => set('seatName', e.target.value)} />
            </div>
            <div className="row" style={{ marginTop: 14 }}>
              <button type="button" className="btn" onClick={() => void tryForm()} disabled={busy} data-action="team-check">
                Check
              </button>
              <button type="submit" className="btn primary" disabled={busy} data-action="team-join">
                Join
              </button>
              {resultLine}
            </div>
          </form>
        </>
      )}
    </section>
  );
}
