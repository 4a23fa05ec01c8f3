// Whole-object C snapshots (native/capi/support/whole_snapshots.cpp, idl/surface.mjs `snapshots.whole`): a user's
// snapshot read in one cache lookup (and its lookup snapshot, read in place), and a message's read from one copy of
// its record, write exactly the bytes of the getter-composed writer (each getter called in turn), for every shape a
// cached user or message takes and once the object or its whole client is gone.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "support/handles.hpp"
#include "support/marshal.hpp"
#include "support/whole_snapshots.hpp"
#include "lobbies/lobby_cache.hpp"
#include "messages/message_cache.hpp"
#include "messages/message_handle.hpp"
#include "users/user_handle.hpp"

namespace svcpp::capi::snapshot_writers {
namespace {

using Bytes = std::vector<uint8_t>;

template <class H>
Bytes Written(void (*write)(SnapshotWriter &, H const *), H const *self) {
    SnapshotWriter sizing(nullptr, 0);
    write(sizing, self);
    Bytes bytes(sizing.Size());
    SnapshotWriter writer(bytes.data(), bytes.size());
    write(writer, self);
    EXPECT_EQ(writer.Size(), bytes.size());
    return bytes;
}

/** A C handle of user `id` of `cache`, dropped at scope exit. */
struct UserHandleOf {
    Svcpp_UserHandle handle{};
    UserHandleOf(const std::shared_ptr<core::UserCache> &cache, uint64_t id) {
        handle.opaque = NewBox<core::UserHandle>(core::UserHandle(cache, id));
    }
    ~UserHandleOf() { Svcpp_UserHandle_Drop(&handle); }
};

/** What the lookup snapshot (Svcpp_Client_GetUser_WriteSnapshot's writer) writes for user `id` of `cache`. */
Bytes LookedUp(const core::UserCache &cache, uint64_t id) {
    SnapshotWriter sizing(nullptr, 0);
    WriteWholeLookup_Client_GetUser(sizing, cache, id);
    Bytes bytes(sizing.Size());
    SnapshotWriter writer(bytes.data(), bytes.size());
    WriteWholeLookup_Client_GetUser(writer, cache, id);
    EXPECT_EQ(writer.Size(), bytes.size());
    return bytes;
}

/**
 * The whole writer writes the getters' bytes; so does the lookup snapshot, which reads the cache in place, for a
 * cached user — and nothing at all for one it does not find.
 */
void ExpectSameAsGetters(const std::shared_ptr<core::UserCache> &cache, uint64_t id) {
    UserHandleOf user(cache, id);
    const Bytes whole = Written(WriteWholeSnapshotOf_UserHandle, &user.handle);
    EXPECT_EQ(whole, Written(WriteSnapshotByGetters_UserHandle, &user.handle));
    EXPECT_FALSE(whole.empty());
    if (cache->Contains(id))
        EXPECT_EQ(LookedUp(*cache, id), whole);
    else
        EXPECT_TRUE(LookedUp(*cache, id).empty());
}

core::UserRecord Plain(uint64_t id) {
    core::UserRecord user;
    user.id = id;
    user.username = "plain_user";
    return user;
}

TEST(WholeUserSnapshot, PlainUserMatchesTheGetters) {
    auto cache = std::make_shared<core::UserCache>("https://cdn.example");
    cache->Upsert(Plain(80351110224678912ull));
    ExpectSameAsGetters(cache, 80351110224678912ull);
}

TEST(WholeUserSnapshot, EveryFieldSetMatchesTheGetters) {
    auto cache = std::make_shared<core::UserCache>("https://cdn.example");
    core::UserRecord user = Plain(42);
    user.globalName = "Globål ✓";
    user.avatar = "a_animatedhash";
    user.guildTag = "TAG";
    user.provisional = true;
    core::ApplicationProfileRecord first;
    first.providerType = core::ExternalIdentityProviderType::OIDC;
    first.providerId = "https://issuer.example";
    first.providerIssuedUserId = "sub-1";
    first.username = "game_name";
    first.avatarHash = "hash";
    first.metadata = R"({"level":3})";
    core::ApplicationProfileRecord second = first;
    second.providerId.reset();
    second.providerIssuedUserId = "sub-2";
    second.metadata.clear();
    // Two profiles with the same identity: a profile handle reads the first of them, and so does the whole read.
    core::ApplicationProfileRecord twin = first;
    twin.username = "twin";
    user.applicationProfiles = std::vector<core::ApplicationProfileRecord>{first, second, twin};
    cache->Upsert(user);
    core::Activity activity;
    activity.name = "Game";
    activity.state = "In a match";
    activity.applicationId = 7;
    activity.buttons.push_back(core::ActivityButton{"Join", "https://example.com/join"});
    ASSERT_TRUE(cache->SetPresence(42, core::StatusType::Dnd, activity));
    ExpectSameAsGetters(cache, 42);
}

TEST(WholeUserSnapshot, EmptyGlobalNameAndStaticAvatarMatchTheGetters) {
    auto cache = std::make_shared<core::UserCache>("https://cdn.example");
    core::UserRecord user = Plain(43);
    user.globalName = "";
    user.avatar = "statichash";
    user.applicationProfiles = std::vector<core::ApplicationProfileRecord>{};
    cache->Upsert(user);
    ExpectSameAsGetters(cache, 43);
}

TEST(WholeUserSnapshot, GoneUserReadsAsTheGettersDefaults) {
    auto cache = std::make_shared<core::UserCache>("https://cdn.example");
    ExpectSameAsGetters(cache, 44);  // never cached
}

TEST(WholeUserSnapshot, GoneCacheReadsAsTheGettersDefaults) {
    auto cache = std::make_shared<core::UserCache>("https://cdn.example");
    cache->Upsert(Plain(45));
    UserHandleOf user(cache, 45);
    cache.reset();  // the client and its cache are gone; the handle stays
    EXPECT_EQ(Written(WriteWholeSnapshotOf_UserHandle, &user.handle),
              Written(WriteSnapshotByGetters_UserHandle, &user.handle));
}

TEST(WholeUserSnapshot, DroppedHandleIsRefused) {
    auto cache = std::make_shared<core::UserCache>("https://cdn.example");
    Svcpp_UserHandle handle{};
    handle.opaque = NewBox<core::UserHandle>(core::UserHandle(cache, 46));
    Svcpp_UserHandle copy = handle;
    Svcpp_UserHandle_Drop(&handle);
    size_t size = 0;
    uint8_t buffer[64];
    EXPECT_EQ(Svcpp_UserHandle_WriteSnapshot(&copy, buffer, sizeof buffer, &size), Svcpp_Errc_InvalidHandle);
    EXPECT_EQ(size, 0u);
}

// ---- messages ----

/** A client's caches as a message handle reads them: the author and mentioned users, lobbies, messages. */
struct MessageCaches {
    std::shared_ptr<core::UserCache> users = std::make_shared<core::UserCache>("https://cdn.example");
    std::shared_ptr<core::LobbyCache> lobbies = std::make_shared<core::LobbyCache>();
    std::shared_ptr<core::MessageCache> messages = std::make_shared<core::MessageCache>();

    core::MessageHandle Handle(core::MessageRecord record) {
        return core::MessageHandle(core::CacheRefs{users, lobbies, messages, {}}, messages->Put(std::move(record)));
    }
};

/** A C handle of a message, dropped at scope exit. */
struct MessageHandleOf {
    Svcpp_MessageHandle handle{};
    explicit MessageHandleOf(core::MessageHandle message) {
        handle.opaque = NewBox<core::MessageHandle>(std::move(message));
    }
    ~MessageHandleOf() { Svcpp_MessageHandle_Drop(&handle); }
};

void ExpectSameAsGetters(const core::MessageHandle &message) {
    MessageHandleOf c(message);
    const Bytes whole = Written(WriteWholeSnapshotOf_MessageHandle, &c.handle);
    EXPECT_EQ(whole, Written(WriteSnapshotByGetters_MessageHandle, &c.handle));
    EXPECT_FALSE(whole.empty());
}

core::MessageRecord LobbyMessage(uint64_t id, uint64_t author, uint64_t lobby) {
    core::MessageRecord m;
    m.id = id;
    m.content = "hello <@" + std::to_string(author) + "> and <@999>";  // one cached mention, one unknown
    m.authorId = author;
    m.channelId = lobby;
    m.channelType = core::ChannelType::Lobby;
    m.lobbyId = lobby;
    m.recipientId = lobby;
    m.sentMs = 1700000000000;
    return m;
}

TEST(WholeMessageSnapshot, LobbyMessageWithEveryFieldMatchesTheGetters) {
    MessageCaches caches;
    core::UserRecord author = Plain(7);
    author.globalName = "Author Ω";
    author.avatar = "hash";
    caches.users->Upsert(author);
    core::LobbyRecord lobby;
    lobby.id = 500;
    caches.lobbies->Put(lobby);
    core::MessageRecord m = LobbyMessage(900, 7, 500);
    m.editedMs = 1700000000500;
    m.metadata = {{"b", "2"}, {"a", "1"}, {"é", "accent"}};
    m.moderationMetadata = {{"flag", "none"}};
    m.applicationId = 1234;
    m.sentFromGame = true;
    m.additionalName = "Bot name";
    ExpectSameAsGetters(caches.Handle(m));
}

TEST(WholeMessageSnapshot, DmFromAnUncachedAuthorInAGoneLobbyMatchesTheGetters) {
    MessageCaches caches;
    core::MessageRecord dm;
    dm.id = 901;
    dm.content = "plain";
    dm.authorId = 8;  // not cached: no author snapshot
    dm.channelId = 8;
    dm.recipientId = 9;
    dm.sentMs = 5;
    ExpectSameAsGetters(caches.Handle(dm));
    ExpectSameAsGetters(caches.Handle(LobbyMessage(902, 8, 501)));  // lobby 501 not cached: no lobby id
}

TEST(WholeMessageSnapshot, GoneClientReadsAsTheGettersDefaults) {
    MessageCaches caches;
    caches.users->Upsert(Plain(7));
    MessageHandleOf c(caches.Handle(LobbyMessage(903, 7, 500)));
    caches = MessageCaches{};  // the client and its caches are gone; the handle stays
    EXPECT_EQ(Written(WriteWholeSnapshotOf_MessageHandle, &c.handle),
              Written(WriteSnapshotByGetters_MessageHandle, &c.handle));
}

}  // namespace
}  // namespace svcpp::capi::snapshot_writers
