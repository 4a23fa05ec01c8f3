#include "support/whole_snapshots.hpp"

#include <optional>
#include <string_view>

#include "client/client.hpp"
#include "support/handles.hpp"
#include "support/marshal.hpp"
#include "messages/message_handle.hpp"
#include "users/user_handle.hpp"
#include "per_thread/per_thread.hpp"

namespace svcpp::capi::snapshot_writers {
namespace {

void WriteString(SnapshotWriter &w, std::string_view s) {
    w.String(reinterpret_cast<const uint8_t *>(s.data()), s.size());
}

void WriteOptionalString(SnapshotWriter &w, const std::optional<std::string> &s) {
    w.Present(s.has_value());
    if (s) WriteString(w, *s);
}

/**
 * An optional value object as the generated writer writes its getter's output: the presence byte, then its snapshot,
 * read through a C handle of a copy (the value's writer reads it through its getters).
 */
template <class Value, class Handle>
void WriteOptionalValue(SnapshotWriter &w, std::optional<Value> value, Svcpp_Errc (*drop)(Handle *),
                        void (*write)(SnapshotWriter &, Handle const *)) {
    w.Present(value.has_value());
    if (!value) return;
    Handle boxed{};
    boxed.opaque = NewBox<Value>(std::move(*value));
    DropOnExit<Handle> owned{&boxed, drop};
    write(w, &boxed);
}

/** A map as TakeProperties writes the getter's output: its entries in key order (a std::map's, byte-wise). */
void WriteProperties(SnapshotWriter &w, const core::Properties &properties) {
    w.Count(properties.size());
    for (const auto &[key, value] : properties) {
        WriteString(w, key);
        WriteString(w, value);
    }
}

/**
 * The profile the getters of its handle read: the first of the user's profiles with its identity
 * (UserApplicationProfileHandle names a profile by identity only), in UserApplicationProfileHandle's field order.
 */
void WriteProfile(SnapshotWriter &w, const core::UserRecord &user, const core::ApplicationProfileRecord &identity) {
    const core::ApplicationProfileRecord *p = nullptr;
    for (const auto &candidate : *user.applicationProfiles) {
        if (candidate.SameIdentity(identity)) {
            p = &candidate;
            break;
        }
    }
    WriteString(w, p->avatarHash);
    WriteString(w, p->metadata);
    WriteOptionalString(w, p->providerId);
    WriteString(w, p->providerIssuedUserId);
    w.I32(static_cast<int32_t>(p->providerType));
    WriteString(w, p->username);
}

}  // namespace

void WriteWholeSnapshotOf_UserHandle(SnapshotWriter &w, Svcpp_UserHandle const *self) {
    // A user handle names a user of a cache and never changes: a copy (a weak reference and an id) read under the
    // box's lock is the object the getters would read.
    const core::UserHandle handle = *Locked<core::UserHandle>(OpaqueOf(self), "self");
    WriteWholeSnapshotOf_UserHandle(w, handle);
}

namespace {

/**
 * The user's fields in UserHandle's snapshot order (the generated WriteSnapshotByGetters_UserHandle's) up to the
 * profiles, written under the cache's lock; the activity is copied out (its writer reads it through a handle, after the
 * lock) and the avatar URL built, AvatarUrl(Gif, Png), the fixed-argument call of idl/surface.mjs snapshots.calls.
 */
void WriteUserHead(SnapshotWriter &w, const core::UserRecord &u, const std::string &cdnBase,
                   std::optional<core::Activity> &activity, std::string &avatarUrl) {
    w.U64(u.id);
    WriteString(w, u.username);
    WriteOptionalString(w, u.globalName);
    // DisplayNameOf(u), without its copy.
    WriteString(w, u.globalName && !u.globalName->empty() ? *u.globalName : u.username);
    WriteOptionalString(w, u.avatar);
    w.I32(static_cast<int32_t>(u.status));
    w.Bool(u.provisional);
    WriteOptionalString(w, u.guildTag);
    const size_t profiles = u.applicationProfiles ? u.applicationProfiles->size() : 0;
    w.Count(profiles);
    for (size_t i = 0; i < profiles; ++i) WriteProfile(w, u, (*u.applicationProfiles)[i]);
    activity = u.gameActivity;
    core::AppendAvatarUrl(avatarUrl, u, cdnBase, core::UserHandleAvatarType::Gif, core::UserHandleAvatarType::Png);
}

/** The rest, after the cache's lock: the activity, then the avatar URL. */
void WriteUserTail(SnapshotWriter &w, std::optional<core::Activity> activity, const std::string &avatarUrl) {
    WriteOptionalValue(w, std::move(activity), Svcpp_Activity_Drop, WriteSnapshotOf_Activity);
    WriteString(w, avatarUrl);
}

/** This thread's buffer for the avatar URL, emptied (no allocation once it has grown). */
struct AvatarUrlSlot;
std::string &AvatarUrlBuffer() {
    std::string &avatarUrl =
        core::threads::PerThread<std::string, AvatarUrlSlot>();  // not thread_local: per_thread/per_thread.hpp
    avatarUrl.clear();
    return avatarUrl;
}

}  // namespace

void WriteWholeSnapshotOf_UserHandle(SnapshotWriter &w, const core::UserHandle &handle) {
    std::optional<core::Activity> activity;
    std::string &avatarUrl = AvatarUrlBuffer();
    const bool cached = handle
                            .ReadRecord([&](const core::UserRecord &u, const std::string &cdnBase) {
                                WriteUserHead(w, u, cdnBase, activity, avatarUrl);
                                return true;
                            })
                            .has_value();
    if (!cached) {
        // Gone (the user left the cache, or the client was dropped): every getter answers its default.
        w.U64(0);
        WriteString(w, "");
        w.Present(false);
        WriteString(w, "");
        w.Present(false);
        w.I32(static_cast<int32_t>(core::StatusType::Offline));
        w.Bool(false);
        w.Present(false);
        w.Count(0);
        w.Present(false);
        WriteString(w, "");
        return;
    }
    WriteUserTail(w, std::move(activity), avatarUrl);
}

void WriteWholeLookup_Client_GetUser(SnapshotWriter &w, const core::UserCache &cache, uint64_t userId) {
    // Read in place under the cache's lock: no handle made (its weak reference taken, locked and released) and no
    // second lookup, as Client::GetUser and then the handle's read would do.
    std::optional<core::Activity> activity;
    std::string &avatarUrl = AvatarUrlBuffer();
    const bool cached = cache
                            .With(userId,
                                  [&](const core::UserRecord &u) {
                                      WriteUserHead(w, u, cache.CdnBase(), activity, avatarUrl);
                                      return true;
                                  })
                            .has_value();
    if (cached) WriteUserTail(w, std::move(activity), avatarUrl);
}

void WriteWholeLookup_Client_GetUser(SnapshotWriter &w, const core::Client &client, uint64_t userId) {
    WriteWholeLookup_Client_GetUser(w, client.CachedUsers(), userId);
}

void WriteWholeSnapshotOf_MessageHandle(SnapshotWriter &w, Svcpp_MessageHandle const *self) {
    // A message handle names a cache entry and never changes: a copy read under the box's lock is what the getters
    // read.
    const core::MessageHandle handle = *Locked<core::MessageHandle>(OpaqueOf(self), "self");
    WriteWholeSnapshotOf_MessageHandle(w, handle);
}

void WriteWholeSnapshotOf_MessageHandle(SnapshotWriter &w, const core::MessageHandle &handle) {
    // The fields in MessageHandle's snapshot order (the generated WriteSnapshotByGetters_MessageHandle's), from one
    // read of the record; the author is written by the user's whole writer, without a handle box.
    const core::MessageHandle::Whole whole = handle.ReadWhole();
    const core::MessageRecord &r = whole.record;
    w.U64(r.id);
    WriteString(w, whole.content);
    WriteString(w, r.content);
    w.U64(r.authorId);
    w.Present(whole.author.has_value());
    if (whole.author) WriteWholeSnapshotOf_UserHandle(w, *whole.author);
    w.U64(r.channelId);
    w.Present(whole.lobbyId.has_value());
    if (whole.lobbyId) w.U64(*whole.lobbyId);
    w.U64(r.recipientId);
    w.U64(r.sentMs);
    w.U64(r.editedMs);
    WriteProperties(w, r.metadata);
    WriteProperties(w, r.moderationMetadata);
    // Never present today (MessageHandle answers nullopt), read through the getters so this stays what they answer.
    WriteOptionalValue(w, handle.AdditionalContent(), Svcpp_AdditionalContent_Drop, WriteSnapshotOf_AdditionalContent);
    const std::optional<core::DisclosureTypes> disclosure = handle.DisclosureType();
    w.Present(disclosure.has_value());
    if (disclosure) w.I32(static_cast<int32_t>(*disclosure));
    w.Present(r.applicationId.has_value());
    if (r.applicationId) w.U64(*r.applicationId);
    w.Bool(r.sentFromGame);
    WriteOptionalString(w, r.additionalName);
}

}  // namespace svcpp::capi::snapshot_writers
