// The areas' operations with their area alone: a fake ServiceHost records the requests an operation sends, so the
// route table, the order of checks and the request of a call are tested without a client or a network.
#include <gtest/gtest.h>

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "guilds/guilds_service.hpp"
#include "net/route.hpp"
#include "relationships/relationships_service.hpp"
#include "runtime/callback_queue.hpp"
#include "runtime/service_host.hpp"
#include "users/user_cache.hpp"

using namespace svcpp::core;
using nlohmann::json;

namespace {

class FakeHost final : public ServiceHost {
  public:
    explicit FakeHost(CallbackQueue &queue) : ops_(queue), log_(queue) {}

    std::string token = "the-token";
    bool ready = true;
    std::vector<net::HttpRequest> sent;

    std::string Token() const override { return token; }
    std::optional<ClientResult> NotReady() const override {
        if (!ready) return FailureResult(ErrorType::ClientNotReady, "not ready");
        return NoToken();
    }
    void Rest(net::HttpRequest request, net::HttpDone) override { sent.push_back(std::move(request)); }
    void Post(std::function<void()> fn) override { fn(); }
    void RunAfter(std::chrono::milliseconds, std::function<void()> fn) override { fn(); }
    const net::ClientExecutor &IoExecutor() override { throw std::logic_error("no I/O objects in these tests"); }
    const std::string &ApiBase() const override { return base_; }
    const std::string &WebBase() const override { return base_; }
    uint64_t GetApplicationId() const override { return 0; }
    Operations &Ops() override { return ops_; }
    Logger &Log() override { return log_; }

  private:
    std::string base_ = "https://api.test/v10";
    Operations ops_;
    Logger log_;
};

std::string Header(const net::HttpRequest &request, const std::string &name) {
    for (const auto &[key, value] : request.headers)
        if (key == name) return value;
    return {};
}

/** A relationship callback that records the result it is completed with (delivered by the queue's pump). */
Callback<void(const ClientResult &)> Recording(std::optional<ClientResult> &out) {
    return {[&out](const ClientResult &result) { out = result; }, {}};
}

}  // namespace

TEST(RouteTable, AnIdIsReadAsColonIdInTheKeyAndAMajorParameterKeepsItsValue) {
    auto message = net::Resolve({"PATCH", "/users/{id}/messages/{id}"}, {7, 99});
    EXPECT_EQ(message.path, "/users/7/messages/99");
    EXPECT_EQ(message.routeKey, "PATCH /users/:id/messages/:id");
    auto channels = net::Resolve({"GET", "/guilds/{major}/channels"}, {42});
    EXPECT_EQ(channels.path, "/guilds/42/channels");
    EXPECT_EQ(channels.routeKey, "GET /guilds/42/channels");
    EXPECT_EQ(net::Resolve({"GET", "/users/@me/dms"}, {}).routeKey, "GET /users/@me/dms");
}

TEST(RouteTable, AnIdCountThatDiffersFromTheTemplateIsAProgrammingError) {
    EXPECT_THROW(net::Resolve({"GET", "/lobbies/{id}/messages"}, {}), std::logic_error);
    EXPECT_THROW(net::Resolve({"GET", "/lobbies/{id}/messages"}, {1, 2}), std::logic_error);
    EXPECT_THROW(net::Resolve({"GET", "/lobbies/{lobby}/messages"}, {1}), std::logic_error);
}

TEST(AreaOperations, AGuildQueryIsOneBearerRequestOfItsRoute) {
    CallbackQueue queue;
    FakeHost host(queue);
    guilds::GuildsService guilds(host);
    guilds.GetGuildChannels(42, {[](const ClientResult &, const std::vector<GuildChannel> &) {}, {}});
    ASSERT_EQ(host.sent.size(), 1u);
    EXPECT_EQ(host.sent[0].method, "GET");
    EXPECT_EQ(host.sent[0].url, "https://api.test/v10/guilds/42/channels");
    EXPECT_EQ(host.sent[0].route, "GET /guilds/42/channels");
    EXPECT_EQ(Header(host.sent[0], "Authorization"), "Bearer the-token");
}

TEST(AreaOperations, ARelationshipChangeBeforeReadySendsNothingAndFailsNotReady) {
    CallbackQueue queue;
    FakeHost host(queue);
    host.ready = false;
    relationships::RelationshipsService relationships(queue, host, std::make_shared<UserCache>("cdn"));
    std::optional<ClientResult> result;
    relationships.BlockUser(7, Recording(result));
    queue.Run([] { return false; });
    EXPECT_TRUE(host.sent.empty());
    ASSERT_TRUE(result);
    EXPECT_EQ(result->type, ErrorType::ClientNotReady);
}

TEST(AreaOperations, BlockAndRemoveGoToTheirRoutesOnTheirAxis) {
    CallbackQueue queue;
    FakeHost host(queue);
    auto users = std::make_shared<UserCache>("cdn");
    users->SetCurrentUserId(1);
    users->Relationships().Apply({7, true, RelationshipType::Friend, false});
    relationships::RelationshipsService relationships(queue, host, users);
    std::optional<ClientResult> blocked, removedGame, removed;
    relationships.BlockUser(7, Recording(blocked));
    relationships.RemoveGameFriend(7, Recording(removedGame));  // not game friends: refused locally, nothing sent
    relationships.RemovePlatformAndGameFriend(7, Recording(removed));
    queue.Run([] { return false; });
    ASSERT_TRUE(removedGame);
    EXPECT_EQ(removedGame->type, ErrorType::ValidationError);
    ASSERT_EQ(host.sent.size(), 2u);
    EXPECT_EQ(host.sent[0].url, "https://api.test/v10/users/@me/relationships/7");
    EXPECT_EQ(host.sent[0].route, "PUT /users/@me/relationships/:id");
    EXPECT_EQ(json::parse(host.sent[0].body), json({{"type", 2}}));
    EXPECT_EQ(host.sent[1].url, "https://api.test/v10/users/@me/relationships/7?action=remove&game=false");
    EXPECT_EQ(host.sent[1].route, "DELETE /users/@me/relationships/:id");
}
