/**
 * Activity instances (PROTOCOL.md §18.1). A launch in a place where the application already runs an instance joins
 * that instance (one instance per application and place); otherwise it starts a new one with a new launch id. The
 * instance ends — and Get Application Activity Instance answers 404 — when its last user leaves.
 *
 * Launches come from the LAUNCH_ACTIVITY callback, from an entry point whose handler the platform answers
 * (DISCORD_LAUNCH_ACTIVITY), and from the development route acting as a user. Who may launch or join is checked
 * by the caller (the interaction already checked its user; the development route checks channel access).
 */
import type { PlatformKernel } from '../kernel.js';
import { APPLICATION_FLAG_EMBEDDED } from '../commands/service.js';
import type { ActivityInstanceRecord } from '../store/activity-types.js';
import type { ApplicationRecord } from '../store/types.js';
import { ActivityErrors } from './errors.js';
import { instanceIdOf, locationIdOf, type ActivityPlace } from './location.js';

export class ActivityInstances {
  constructor(private readonly ctx: PlatformKernel) {}

  /** Starts the application's activity in `place` for `userId`, or adds the user to the instance already there. */
  launch(
    app: ApplicationRecord,
    userId: string,
    place: ActivityPlace,
  ): { instance: ActivityInstanceRecord; created: boolean } {
    if ((app.flags & APPLICATION_FLAG_EMBEDDED) === 0) throw ActivityErrors.activitiesDisabled();
    const locationId = locationIdOf(place);
    return this.ctx.store.transaction(() => {
      const running = this.ctx.store.activities.findInstanceAt(app.id, locationId);
      if (running) return { instance: this.add(running, userId), created: false };
      const launchId = this.ctx.ids.next();
      const instance: ActivityInstanceRecord = {
        instanceId: instanceIdOf(launchId, locationId),
        applicationId: app.id,
        launchId,
        locationId,
        kind: place.kind,
        channelId: place.channelId,
        guildId: place.guildId,
        users: [userId],
        participants: place.participants,
        createdAt: this.ctx.now(),
      };
      this.ctx.store.activities.insertInstance(instance);
      return { instance, created: true };
    });
  }

  /** The application's running instance; another application's or an ended one is not found (published 404). */
  get(applicationId: string, instanceId: string): ActivityInstanceRecord {
    const instance = this.ctx.store.activities.getInstance(instanceId);
    if (!instance || instance.applicationId !== applicationId) throw ActivityErrors.unknownInstance();
    return instance;
  }

  join(applicationId: string, instanceId: string, userId: string): ActivityInstanceRecord {
    return this.ctx.store.transaction(() => {
      const instance = this.get(applicationId, instanceId);
      if (instance.kind === 'pc' && !instance.participants.includes(userId)) throw ActivityErrors.notParticipant();
      return this.add(instance, userId);
    });
  }

  /** Removes the user; returns the instance, or null when the last user left and the instance ended. */
  leave(applicationId: string, instanceId: string, userId: string): ActivityInstanceRecord | null {
    return this.ctx.store.transaction(() => {
      const instance = this.get(applicationId, instanceId);
      if (!instance.users.includes(userId)) throw ActivityErrors.userNotInInstance();
      const users = instance.users.filter((id) => id !== userId);
      if (users.length === 0) {
        this.ctx.store.activities.deleteInstance(instance.instanceId);
        return null;
      }
      const updated = { ...instance, users };
      this.ctx.store.activities.updateInstance(updated);
      return updated;
    });
  }

  /** Joining twice changes nothing. */
  private add(instance: ActivityInstanceRecord, userId: string): ActivityInstanceRecord {
    if (instance.users.includes(userId)) return instance;
    const updated = { ...instance, users: [...instance.users, userId] };
    this.ctx.store.activities.updateInstance(updated);
    return updated;
  }
}
