/** "09:05": a time of day on the editor's clock (24-hour, as the app's other times). */
function clockTime(at: number): string {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/**
 * What an Add by URL under way says of its limit: when main gives up on it, and what is left of it
 * (whole seconds, rounded up, so it reads 0:00 only when the time is out).
 */
export function addUrlLimitWords(endsAt: number, now: number): string {
  const left = Math.max(0, Math.ceil((endsAt - now) / 1000));
  return `Gives up at ${clockTime(endsAt)} unless finished (${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left)`;
}
