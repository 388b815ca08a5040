/**
 * Why the service failed an asynchronous task, read from its error_message (free text: the spec
 * shows only that it "holds the reason"), by what the user can do about it:
 * - 'input': what was sent cannot be used (it does not decode, a shape or type it refuses, too
 *   short): sending it again changes nothing; the clip fails with the reason, to be fixed or skipped.
 * - 'service': the service's own trouble (a model timeout, overload, an internal error) or a reason
 *   it does not explain: the task is sent again, now and later.
 * Service words win over input words ("invalid model output" is the model's), and an unknown reason
 * counts as the service's, since the user cannot act on it either.
 */
export type TaskFailureCause = 'input' | 'service';

const SERVICE_WORDS =
  /\b(time(?:d)?\s?out|timeout|deadline|internal|unavailable|overload(?:ed)?|capacity|busy|try again|retry|out of memory|oom|gpu|cuda|worker|crash(?:ed)?|model|inference|server|exhausted|unexpected|temporar(?:y|ily))\b/i;
const INPUT_WORDS =
  /\b(decod(?:e|ing)|corrupt(?:ed)?|unsupported|invalid|malformed|too (?:short|long|large|small)|empty|no frames?|unreadable|cannot read|could not read|codec|format|shape|dtype|resolution|dimension|mismatch)\b/i;

export function classifyTaskFailure(reason: string | null | undefined): TaskFailureCause {
  const text = reason ?? '';
  if (SERVICE_WORDS.test(text)) return 'service';
  if (INPUT_WORDS.test(text)) return 'input';
  return 'service';
}
