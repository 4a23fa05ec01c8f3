// DispatchTable: the one routing of gateway dispatches to the area services (native/SEMANTICS.md "Area services").
//
// Each service registers the dispatch types it reduces; Client::OnDispatch makes one hash lookup per frame instead
// of asking every area in turn with string comparisons. Several handlers of one type (READY feeds every area) run in
// registration order, which is the order the services are created in: users first, so the other areas see the
// signed-in user.
//
// Built once while the client is constructed and read-only afterwards, so the I/O thread reads it without a lock.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace svcpp::core {

class DispatchTable {
  public:
    using Handler = std::function<void(std::string_view type, const nlohmann::json &data)>;

    /** Adds a handler of one dispatch type (after the handlers already registered for it). */
    void On(std::string type, Handler handler) { handlers_[std::move(type)].push_back(std::move(handler)); }

    /** Runs the handlers of `type`; false when no area handles it (the frame is ignored). */
    bool Dispatch(std::string_view type, const nlohmann::json &data) const {
        auto it = handlers_.find(type);  // heterogeneous: no std::string is built per frame
        if (it == handlers_.end()) return false;
        for (const auto &handler : it->second) handler(type, data);
        return true;
    }

    bool Handles(std::string_view type) const { return handlers_.find(type) != handlers_.end(); }

  private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, std::vector<Handler>, Hash, std::equal_to<>> handlers_;
};

}  // namespace svcpp::core
