// The Client handle and its pump. Each client owns ONE wakeup, a libuv async handle on the environment's loop: the C
// wakeup hook (Svcpp_Client_SetCallbacksPendingHook, SDK thread) signals it (coalesced, lock-free), and its handler on
// the JS thread runs bounded batches (Svcpp_Client_RunCallbacksUpTo; what stays queued runs on the next turns of the
// event loop) in a callback scope. No polling timer. The handle starts unref'd; the TypeScript Client refs it while
// it has listeners (Client_SetPumpRef).
#pragma once

#include <optional>

#include "addon.hpp"

namespace svcpp_node {

/** Wraps a freshly initialised client: starts its pump and registers an env cleanup hook. */
Napi::Object WrapClient(Napi::Env env, Svcpp_Client client);
Svcpp_Client *UnwrapClient(Napi::Env env, const Napi::Value &v);
/** Drops the client, THEN releases its TSFN (the hook can no longer fire once Drop returned). */
Svcpp_Errc DropClient(Napi::Env env, const Napi::Value &v);
/**
 * Svcpp_Client_RunCallbacks (or, with `max`, Svcpp_Client_RunCallbacksUpTo) on the calling (JS) thread, with the
 * pump's bookkeeping.
 */
Svcpp_Errc RunClientCallbacks(Napi::Env env, const Napi::Value &v, std::optional<uint32_t> max = std::nullopt);
void SetClientPumpRef(Napi::Env env, const Napi::Value &v, bool ref);

}  // namespace svcpp_node
