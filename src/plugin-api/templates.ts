// Handlebars templates over a message, as plugins render them at run time: the payload is the
// context and `@messageId` names the message. Their syntax is checked when the workflow is saved
// (`handlebarsTemplate()` in a config schema); what can still fail is the rendering.
import Handlebars from 'handlebars';
import { errorText as messageOf } from './error-text.js';
import { StepFailure } from './step-failure.js';

/** Renders one message; throws a non-retryable StepFailure naming `what` when it cannot. */
export type MessageTemplate = (payload: unknown, messageId: string) => string;

export function compileMessageTemplate(text: string, what: string): MessageTemplate {
  // Plain text, not HTML: a prompt or question shows the payload's characters as they are.
  const render = Handlebars.compile(text, { noEscape: true, strict: false });
  return (payload, messageId) => {
    try {
      return render(payload, { data: { messageId } });
    } catch (error) {
      // e.g. a missing helper: the same message fails again, so it is not retried.
      throw StepFailure.nonRetryable(`${what} template failed: ${messageOf(error)}`, error);
    }
  };
}
