// Every state, phase, status and reason the dashboard shows, mapped to one meaning of the palette (palette.css):
// tone(x) is the class that colours it, colour(x) the colour itself for Chart.js (which paints on a canvas).
const MEANING = {
  // succeeded, healthy
  Succeeded: 'succeeded', connected: 'succeeded',
  // moving
  Progressing: 'progressing', Open: 'progressing', Soaking: 'progressing', Installing: 'progressing',
  Upgrading: 'progressing', Deleting: 'progressing',
  // waiting for a person or a time
  Paused: 'waiting', WaitingForWindow: 'waiting', RequiresApproval: 'waiting', SucceededWithExceptions: 'waiting',
  WaitingForApproval: 'waiting', Frozen: 'waiting', OutsideWindow: 'waiting', BehindPolicy: 'waiting',
  WaitingForProvider: 'waiting',
  // failed, blocked
  Failed: 'failed', Blocked: 'failed', StillFailed: 'failed', disconnected: 'failed', PreflightBlocked: 'failed',
  EdgeAtRisk: 'failed', Disconnected: 'failed', ProviderFailed: 'failed',
  // undone
  RolledBack: 'rolled-back'
};

/** The palette meaning of a state, phase, cluster status or reason code: unknown when it has none. */
export function meaning(state) { return MEANING[state] || 'unknown'; }

/** The class that colours an element by the meaning of {@code state}. */
export function tone(state) { return 'tone-' + meaning(state); }

/** The colour of a palette variable (--colour-failed, --series-3) as Chart.js needs it. */
export function cssColour(variable) {
  return getComputedStyle(document.documentElement).getPropertyValue(variable).trim();
}

/** The colour of the meaning of {@code state}. */
export function colour(state) { return cssColour('--colour-' + meaning(state)); }

/** A swatch of the colour of {@code state}, for legends and state labels. */
export function swatch(state) { return `<i class="swatch ${tone(state)}" aria-hidden="true"></i>`; }
