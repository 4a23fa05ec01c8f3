/**
 * Get Application Activity Instance (published; PROTOCOL.md §18.1): the application's bot reads one of its running
 * instances — how an activity's server checks that an instance id a client presents is real. Another
 * application's bot is refused (403 Missing Access, as for the other per-application routes).
 */
import { botOf, pathParams, type ApiArea } from '../http/api.js';
import { Errors } from '../http/errors.js';
import type { ActivityInstances } from './instances.js';
import { instanceJson } from './location.js';

export const activityRoutes =
  (instances: ActivityInstances): ApiArea =>
  (app) => {
    app.get(
      '/applications/:applicationId/activity-instances/:instanceId',
      { config: { auth: { kind: 'bot' } }, schema: { params: pathParams('applicationId', 'instanceId') } },
      async (request) => {
        const caller = botOf(request);
        if (caller.app.id !== request.params.applicationId) throw Errors.missingAccess();
        return instanceJson(instances.get(caller.app.id, request.params.instanceId));
      },
    );
  };
