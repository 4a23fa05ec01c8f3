/**
 * Which callback answers which interaction (PROTOCOL.md §17.3), for the cases the other files leave out:
 * LAUNCH_ACTIVITY (12) is valid for a component click and a modal submission too (published), a modal submission
 * cannot be answered with a modal, and PONG (1) answers no user interaction. Real platform and gateway session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botCall } from '../bot/helpers.js';
import {
  callback,
  createCommand,
  interactionSession,
  dev,
  startInteractionPlatform,
  trigger,
  type InteractionFixture,
} from './support.js';

let f: InteractionFixture;
let bot: Awaited<ReturnType<typeof interactionSession>>;

beforeAll(async () => {
  f = await startInteractionPlatform();
  bot = await interactionSession(f);
  expect((await dev(f, 'PATCH', `/applications/${f.appId}/interactions`, { activities_enabled: true })).status).toBe(
    200,
  );
});
afterAll(async () => {
  bot?.close();
  await f?.platform.close();
});

const received = (id: string) => bot.received(id);

/** A modal submission: /form opens a one-field modal, the user submits it. */
let forms = 0;
async function modalSubmission(): Promise<any> {
  const id = await createCommand(f, { name: `form${++forms}`, description: 'x' });
  const invoked = await trigger(f, {
    type: 2,
    user_id: f.memberId,
    application_id: f.appId,
    channel_id: f.generalId,
    command_id: id,
  });
  const command = await received(invoked.body.interaction_id);
  const modal = {
    custom_id: 'm',
    title: 'M',
    components: [{ type: 18, label: 'Name', component: { type: 4, custom_id: 'name', style: 1 } }],
  };
  expect((await callback(f, command, { type: 9, data: modal })).status).toBe(204);
  const submitted = await trigger(f, {
    type: 5,
    user_id: f.memberId,
    interaction_id: command.id,
    values: { name: 'Bob' },
  });
  expect(submitted.status, submitted.text).toBe(200);
  return received(submitted.body.interaction_id);
}

describe('callback validity', () => {
  it('LAUNCH_ACTIVITY answers a component click and a modal submission', async () => {
    const posted = await botCall(f, 'POST', `/channels/${f.generalId}/messages`, {
      content: 'play?',
      components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Play', custom_id: 'play' }] }],
    });
    expect(posted.status, posted.text).toBe(200);
    const clicked = await trigger(f, {
      type: 3,
      user_id: f.memberId,
      application_id: f.appId,
      channel_id: f.generalId,
      message_id: posted.body.id,
      custom_id: 'play',
    });
    const click = await received(clicked.body.interaction_id);
    const launchedFromClick = await callback(f, click, { type: 12 }, true);
    expect(launchedFromClick.status, launchedFromClick.text).toBe(200);
    expect(launchedFromClick.body.resource.activity_instance.id).toMatch(/^i-\d+-gc-\d+-\d+$/);

    const submission = await modalSubmission();
    expect(submission.type).toBe(5);
    const launchedFromModal = await callback(f, submission, { type: 12 }, true);
    expect(launchedFromModal.status, launchedFromModal.text).toBe(200);
    expect(launchedFromModal.body.interaction).toMatchObject({
      id: submission.id,
      type: 5,
      activity_instance_id: launchedFromModal.body.resource.activity_instance.id,
    });
  });

  it('a modal submission cannot be answered with a modal; PONG answers no user interaction; nothing changes', async () => {
    const submission = await modalSubmission();
    const modal = {
      custom_id: 'again',
      title: 'Again',
      components: [{ type: 18, label: 'Name', component: { type: 4, custom_id: 'name', style: 1 } }],
    };
    expect((await callback(f, submission, { type: 9, data: modal })).body.errors.type._errors[0].code).toBe(
      'INTERACTION_CALLBACK_TYPE_INVALID',
    );
    expect((await callback(f, submission, { type: 1 })).body.errors.type._errors[0].code).toBe(
      'INTERACTION_CALLBACK_TYPE_INVALID',
    );
    // Still unanswered: a valid response goes through.
    expect((await callback(f, submission, { type: 4, data: { content: 'thanks' } })).status).toBe(204);
  });
});
