// Whole-object snapshot writers (idl/surface.mjs `snapshots.whole`; native/SEMANTICS.md "Snapshots"): for the types
// whose snapshot is read on a hot path (a user: every UserUpdated event's payload), the C snapshot reads the object
// once — one cache lookup under one lock — instead of through its public getters one by one (each a registry lookup,
// a lock, a cache lookup and an allocated copy of its string). What they write is exactly what the getter-composed
// writer writes (WriteSnapshotByGetters_<T>, generated beside it): native/tests/capi checks both byte for byte.
#pragma once
#include "support/snapshot_writer.hpp"

namespace svcpp::core {
class Client;
class UserCache;
class UserHandle;
class MessageHandle;
}  // namespace svcpp::core

namespace svcpp::capi::snapshot_writers {

// Generated (native/capi/generated/Snapshots.cpp).
void WriteSnapshotOf_Activity(SnapshotWriter &w, Svcpp_Activity const *self);
void WriteSnapshotOf_AdditionalContent(SnapshotWriter &w, Svcpp_AdditionalContent const *self);
void WriteSnapshotByGetters_UserHandle(SnapshotWriter &w, Svcpp_UserHandle const *self);
void WriteSnapshotByGetters_MessageHandle(SnapshotWriter &w, Svcpp_MessageHandle const *self);

// Hand-written (support/whole_snapshots.cpp). The core-object overloads are what a lookup snapshot
// (Svcpp_Client_GetUser_WriteSnapshot, ..._GetMessageHandle_...) writes the object it found with: no handle box is
// made for it.
void WriteWholeSnapshotOf_UserHandle(SnapshotWriter &w, Svcpp_UserHandle const *self);
void WriteWholeSnapshotOf_UserHandle(SnapshotWriter &w, const core::UserHandle &handle);
void WriteWholeSnapshotOf_MessageHandle(SnapshotWriter &w, Svcpp_MessageHandle const *self);
void WriteWholeSnapshotOf_MessageHandle(SnapshotWriter &w, const core::MessageHandle &handle);

// The lookup snapshots idl/surface.mjs `snapshots.inPlaceLookups` names (Svcpp_Client_GetUser_WriteSnapshot): the user
// read in place, under the cache's lock; nothing at all written when it is not cached (size 0). The cache overload is
// the one the tests call.
void WriteWholeLookup_Client_GetUser(SnapshotWriter &w, const core::Client &client, uint64_t userId);
void WriteWholeLookup_Client_GetUser(SnapshotWriter &w, const core::UserCache &cache, uint64_t userId);

}  // namespace svcpp::capi::snapshot_writers
