/**
 * The supervisor's admission step: an event that carries envelopes (a send, publish, request or
 * response, or an agent's completed output) has each admitted by the ledger, then refused to its
 * sender, or queued for the journal (the outbox handed to the writer once per burst), delivered
 * early under pipelined delivery, its ack deadlines journaled beside it, and a request's timer
 * armed.
 */
import { isRefusal, type AdmissionRequest } from './supervisor-admission-request.ts';
import { envelopesOf, type SupervisorEvent } from './supervisor-events.ts';
import { trackRequest } from './supervisor-requests.ts';
import { deliverPending, refuse, type SupervisorStep } from './supervisor-step.ts';

/** Admits the envelopes `event` carries, in order, and carries out what each admission calls for. */
export function admitEnvelopes(step: SupervisorStep, event: SupervisorEvent): void {
  const { ledger } = step.context;
  switch (event.type) {
    case 'supervisor.send':
      admitOne(step, {
        kind: 'direct',
        envelope: event.envelope,
        context: event.context,
        redeliver: event.redeliver === true,
      });
      return;
    case 'supervisor.publish':
      admitOne(step, { kind: 'broadcast', envelope: event.envelope, topic: event.topic, context: event.context });
      return;
    case 'supervisor.request':
      admitOne(step, { kind: 'request', envelope: event.envelope, context: event.context }, event.timeoutMs);
      return;
    case 'supervisor.respond':
      admitOne(step, {
        kind: 'response',
        envelope: event.envelope,
        inReplyTo: event.inReplyTo,
        context: event.context,
      });
      return;
    case 'agent.report': {
      if (event.outcome.status !== 'completed' || step.config.system.routeAgentOutputs === false) return;
      const { addressing } = step.config;
      for (const envelope of envelopesOf(event.outcome.output, addressing)) {
        // A worker answering a request answers it with its output.
        const open = ledger.requests.answerable(event.requestId);
        if (open && open.requester === addressing.receiversOf(envelope))
          admitOne(step, { kind: 'response', envelope, inReplyTo: event.requestId });
        else admitOne(step, { kind: 'direct', envelope });
      }
      return;
    }
  }
}

/** Admits one envelope; `timeoutMs` is a request's own timeout, if it set one. */
function admitOne(step: SupervisorStep, request: AdmissionRequest, timeoutMs?: number): void {
  const { ledger, acks } = step.context;
  const pending = ledger.admit(request);
  if (isRefusal(pending)) {
    refuse(step, pending.sender, { type: 'supervisor.rejected', error: pending.error, envelope: pending.envelope });
    return;
  }
  if (pending.deliveredEarly) deliverPending(step, pending);
  // One event per outbox: the writer takes it, with whatever is added until then, in a microtask.
  const outbox = ledger.takeOpened();
  if (outbox) step.enqueue.sendTo('journal', { type: 'journal.append', outbox });
  if (pending.journaled) return;
  // Beside the envelope, in its write: who must ack it by when (a restart re-arms from it).
  // Stryker disable next-line OptionalChaining: `acks` exists only where `ackPolicyOf` does (createSupervisorMachine makes one from the other)
  const policy = acks && step.config.ackPolicyOf?.(pending.record.envelope);
  if (policy) {
    const now = step.config.now();
    for (const target of pending.targets)
      ledger.note(pending.partition, acks.admitted(pending.id, target, policy, now));
  }
  trackRequest(step, pending, timeoutMs);
}
