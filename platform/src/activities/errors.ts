import { ApiError, Errors, fieldError } from '../http/errors.js';

/** Errors of the activities area (PROTOCOL.md §18). */
export const ActivityErrors = {
  /**
   * Published: Get Application Activity Instance "returns a 404" for an instance that does not exist (or no longer
   * runs) — the generic not-found body, code 0. An instance of another application is not found either.
   */
  unknownInstance: () => Errors.notFound(),
  activitiesDisabled: () =>
    fieldError(
      ['application_id'],
      'APPLICATION_ACTIVITIES_DISABLED',
      'The application does not have activities enabled.',
    ),
  userNotInInstance: () =>
    fieldError(['user_id'], 'ACTIVITY_USER_NOT_IN_INSTANCE', 'The user is not in this activity instance.'),
  notParticipant: () =>
    fieldError(
      ['user_id'],
      'ACTIVITY_USER_NOT_IN_CHANNEL',
      'The user is not a participant of the channel the instance runs in.',
    ),
  /** The activity proxy (OURS): no URL mapping covers the path. */
  noMapping: () => new ApiError(404, 0, '404: No URL mapping of this application covers this path'),
  /** The activity proxy (OURS): the mapped target could not be reached or broke off. */
  badGateway: () => new ApiError(502, 0, '502: The URL mapping target did not answer'),
  /**
   * The activity proxy (OURS): the outbound guard refuses the mapped target (the platform itself, a private address).
   */
  refusedTarget: (why: string) =>
    new ApiError(502, 0, `502: The URL mapping target is not a destination the platform sends to (${why})`),
};
