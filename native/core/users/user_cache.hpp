// The client's cache of users: the signed-in user (from READY) and every user the gateway has told it
// about. Written on the I/O thread, read from any thread through UserHandles; updated before the matching
// event is queued, so a host reading inside an event callback sees the new state.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "generated/enums.hpp"
#include "generated/values.hpp"
#include "relationships/relationship_cache.hpp"

namespace svcpp::core {

/** One profile of the signed-in user for the session's application: an external identity the platform holds. */
struct ApplicationProfileRecord {
    ExternalIdentityProviderType providerType = ExternalIdentityProviderType::Unknown;
    std::optional<std::string> providerId;  // the OIDC issuer; absent for bot-issued identities
    std::string providerIssuedUserId;
    std::string username;
    std::string avatarHash;
    std::string metadata;

    /** Profiles are told apart by who issued which id. */
    bool SameIdentity(const ApplicationProfileRecord &o) const {
        return providerType == o.providerType && providerId == o.providerId &&
               providerIssuedUserId == o.providerIssuedUserId;
    }
};

struct UserRecord {
    uint64_t id = 0;
    std::string username;
    std::optional<std::string> globalName;
    std::optional<std::string> avatar;
    std::optional<std::string> guildTag;
    StatusType status = StatusType::Offline;
    bool provisional = false;
    /** Absent when the user object did not carry `application_profiles` (only READY's own user does). */
    std::optional<std::vector<ApplicationProfileRecord>> applicationProfiles;
    /** Presence: the user's activity for this application (rich presence), from PRESENCE_UPDATE. */
    std::optional<Activity> gameActivity;
};

/** GlobalName when set (and not empty), else Username. */
std::string DisplayNameOf(const UserRecord &user);

/** The platform's user object -> UserRecord (id 0 when it has no valid id). Status is not part of it. */
UserRecord ParseUser(const nlohmann::json &user);

class UserCache {
  public:
    explicit UserCache(std::string cdnBase) : cdnBase_(std::move(cdnBase)) {}

    /**
     * Inserts or replaces the profile fields of a user, keeping its presence (status, game activity) and its
     * application profiles when the update has none.
     */
    void Upsert(const UserRecord &user);
    /** Sets a user's status; false when the user is unknown. */
    bool SetStatus(uint64_t id, StatusType status);
    /** Sets a user's presence (status and game activity); false when the user is unknown or nothing changed. */
    bool SetPresence(uint64_t id, StatusType status, const std::optional<Activity> &gameActivity);
    std::optional<UserRecord> Get(uint64_t id) const;
    /** Whether the user is cached, without copying the record (a lookup's existence check). */
    bool Contains(uint64_t id) const;
    /**
     * read(record) under the cache's lock, for a user that is cached; nullopt otherwise. What a handle's getter uses:
     * it copies the one field it answers, where Get copies the whole record (profiles and activity included) — a
     * snapshot reads every getter, so that copy was most of a snapshot's native cost.
     */
    template <class Read>
    auto With(uint64_t id, Read &&read) const -> std::optional<decltype(read(std::declval<const UserRecord &>()))> {
        std::lock_guard lock(mutex_);
        auto it = users_.find(id);
        if (it == users_.end()) return std::nullopt;
        return read(it->second);
    }

    void SetCurrentUserId(uint64_t id);
    uint64_t CurrentUserId() const;
    /** Forgets everything, relationships included (a new session will send READY again). */
    void Clear();

    /**
     * The relationships with the cached users. They live beside the users so that every UserHandle reaches its
     * user's relationship through the one cache reference it holds.
     */
    RelationshipCache &Relationships() { return relationships_; }
    const RelationshipCache &Relationships() const { return relationships_; }

    const std::string &CdnBase() const { return cdnBase_; }

  private:
    const std::string cdnBase_;
    mutable std::mutex mutex_;
    std::map<uint64_t, UserRecord> users_;
    uint64_t currentUserId_ = 0;
    RelationshipCache relationships_;
};

}  // namespace svcpp::core
