#include "lobbies/lobbies_service.hpp"

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core::lobbies {

void LobbiesService::Register(DispatchTable &table) {
    table.On("READY", [this](std::string_view, const nlohmann::json &data) {
        Post(ApplyReady(*cache_, *users_, wire::Member(data, "lobbies")));
    });
    for (const char *type : {"LOBBY_CREATE", "LOBBY_UPDATE", "LOBBY_DELETE", "LOBBY_MEMBER_ADD", "LOBBY_MEMBER_UPDATE",
                             "LOBBY_MEMBER_REMOVE"}) {
        table.On(type, [this](std::string_view t, const nlohmann::json &data) {
            Post(ApplyDispatch(*cache_, *users_, users_->CurrentUserId(), t, data));
        });
    }
}

void LobbiesService::Post(const std::vector<LobbyEvent> &events) {
    using Kind = LobbyEvent::Kind;
    for (const auto &e : events) {
        switch (e.kind) {
            case Kind::Created: created_.Post(e.lobbyId); break;
            case Kind::Deleted: deleted_.Post(e.lobbyId); break;
            case Kind::Updated: updated_.Post(e.lobbyId); break;
            case Kind::MemberAdded: memberAdded_.Post(e.lobbyId, e.memberId); break;
            case Kind::MemberRemoved: memberRemoved_.Post(e.lobbyId, e.memberId); break;
            case Kind::MemberUpdated: memberUpdated_.Post(e.lobbyId, e.memberId); break;
        }
    }
}

void LobbiesService::Clear() {
    for (uint64_t id : cache_->Clear()) deleted_.Post(id);
}

void LobbiesService::ReleaseRegistrations() {
    created_.Set({});
    deleted_.Set({});
    updated_.Set({});
    memberAdded_.Set({});
    memberRemoved_.Set({});
    memberUpdated_.Set({});
}

}  // namespace svcpp::core::lobbies
