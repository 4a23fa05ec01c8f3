#include "messages/messages_service.hpp"

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core::messages {

void MessagesService::Register(DispatchTable &table) {
    // A new session: what was cached from an earlier one may have missed messages (history is fetched again).
    table.On("READY", [this](std::string_view, const nlohmann::json &) { cache_->Clear(); });
    for (const char *type : {"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE", "LOBBY_MESSAGE_CREATE",
                             "LOBBY_MESSAGE_UPDATE", "LOBBY_MESSAGE_DELETE"}) {
        table.On(type, [this](std::string_view t, const nlohmann::json &data) {
            // A lobby message the catch-up after a gap already delivered is not delivered again.
            if (t == "LOBBY_MESSAGE_CREATE" &&
                !catchUp_.Admit(wire::Snowflake(data, "lobby_id"), wire::Snowflake(data, "id")))
                return;
            Post(ApplyDispatch(*cache_, *users_, users_->CurrentUserId(), t, data));
        });
    }
}

void MessagesService::Post(const std::vector<MessageEvent> &events) {
    using Kind = MessageEvent::Kind;
    for (const auto &e : events) {
        switch (e.kind) {
            case Kind::Created: created_.Post(e.messageId); break;
            case Kind::Updated: updated_.Post(e.messageId); break;
            case Kind::Deleted: deleted_.Post(e.messageId, e.channelId); break;
        }
    }
}

void MessagesService::ReleaseRegistrations() {
    created_.Set({});
    updated_.Set({});
    deleted_.Set({});
}

}  // namespace svcpp::core::messages
