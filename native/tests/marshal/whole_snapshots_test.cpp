// Whole-object C snapshots (native/capi/support/whole_snapshots.cpp, idl/surface.mjs `snapshots.whole`): a user's
// snapshot read in one cache lookup writes exactly the bytes of the getter-composed writer (each getter called in
// turn), for every shape a cached user takes and once the user or the whole cache is gone.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "support/handles.hpp"
#include "support/marshal.hpp"
#include "support/whole_snapshots.hpp"
#include "users/user_handle.hpp"

namespace svcpp::capi::snapshot_writers {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes Written(void (*write)(SnapshotWriter &, Svcpp_UserHandle const *), Svcpp_UserHandle const *self) {
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

void ExpectSameAsGetters(const std::shared_ptr<core::UserCache> &cache, uint64_t id) {
    UserHandleOf user(cache, id);
    const Bytes whole = Written(WriteWholeSnapshotOf_UserHandle, &user.handle);
    EXPECT_EQ(whole, Written(WriteSnapshotByGetters_UserHandle, &user.handle));
    EXPECT_FALSE(whole.empty());
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
    EXPECT_EQ(Written(WriteWholeSnapshotOf_UserHandle, &user.handle), Written(WriteSnapshotByGetters_UserHandle, &user.handle));
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

}  // namespace
}  // namespace svcpp::capi::snapshot_writers
