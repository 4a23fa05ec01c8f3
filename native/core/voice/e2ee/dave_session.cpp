#include "voice/e2ee/dave_session.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "mls/group_state.hpp"

namespace svcpp::core::voice::e2ee {

using dave::Op;
using nlohmann::json;

namespace {

/** A JSON field that must be an unsigned integer no larger than `max`; nullopt otherwise. */
std::optional<uint64_t> UnsignedField(const json &d, const char *name, uint64_t max) {
    if (!d.is_object()) return std::nullopt;
    auto it = d.find(name);
    // Parsed JSON holds non-negative numbers as unsigned; built JSON may hold them as signed.
    if (it == d.end() || !it->is_number_integer()) return std::nullopt;
    if (!it->is_number_unsigned() && it->get<int64_t>() < 0) return std::nullopt;
    uint64_t value = it->get<uint64_t>();
    if (value > max) return std::nullopt;
    return value;
}

}  // namespace

DaveSession::DaveSession(DaveMlsGroup &group, DaveFrameTransform &transform, DaveSessionCallbacks callbacks)
    : group_(group), transform_(transform), callbacks_(std::move(callbacks)) {}

void DaveSession::OnSessionDescription(int daveProtocolVersion) {
    state_.protocolVersion = daveProtocolVersion;
    // Version 0: the server serves no DAVE (a test platform) — media goes in clear, as the server relays it.
    state_.passthrough = daveProtocolVersion == 0;
    transform_.SetPassthrough(state_.passthrough);
    Publish();
}

void DaveSession::OnJson(int op, const json &d) {
    switch (static_cast<Op>(op)) {
        case Op::PrepareTransition: return OnPrepareTransition(d);
        case Op::ExecuteTransition: return OnExecuteTransition(d);
        case Op::PrepareEpoch: return OnPrepareEpoch(d);
        default: Warn("dave: JSON opcode " + std::to_string(op) + " is not one the server sends; ignored");
    }
}

void DaveSession::OnBinary(Op op, mls::ByteView payload) {
    try {
        switch (op) {
            case Op::ExternalSender: return OnExternalSender(payload);
            case Op::Proposals: return OnProposals(payload);
            case Op::AnnounceCommitTransition: return OnAnnounceCommit(payload);
            case Op::Welcome: return OnWelcome(payload);
            default:
                Warn("dave: binary opcode " + std::to_string(static_cast<int>(op)) + " is not one the server sends");
        }
    } catch (const mls::DecodeError &e) {
        Warn(std::string("dave: malformed message ignored: ") + e.what());
    }
}

void DaveSession::OnExternalSender(mls::ByteView payload) {
    try {
        group_.SetExternalSender(payload);
    } catch (const mls::Error &e) {
        return Warn(std::string("dave: external sender refused: ") + e.what());
    }
    haveExternalSender_ = true;
    Rejoin();
}

void DaveSession::OnProposals(mls::ByteView payload) {
    dave::ProposalsPayload proposals = dave::DecodeProposals(payload);
    if (!haveExternalSender_) return Warn("dave: proposals before the external sender; ignored");
    try {
        if (proposals.revoke)
            group_.RevokeProposals(proposals.items);
        else
            group_.AppendProposals(proposals.items);
    } catch (const mls::Error &e) {
        // The server authored them for an epoch we may have left already: nothing to commit from them.
        return Warn(std::string("dave: proposals refused: ") + e.what());
    }
    std::optional<DaveCommitWelcome> commit;
    try {
        commit = group_.CommitPendingProposals();
    } catch (const mls::Error &e) {
        return Warn(std::string("dave: cannot commit the proposals: ") + e.what());
    }
    if (commit)
        callbacks_.sendBinary(
            dave::EncodeClientBinary(Op::CommitWelcome, dave::EncodeCommitWelcome(commit->commit, commit->welcome)));
}

void DaveSession::OnAnnounceCommit(mls::ByteView payload) {
    dave::TransitionPayload announced = dave::DecodeTransitionPayload(payload);
    if (!group_.InGroup()) return Warn("dave: a commit while we hold no group (waiting for a Welcome); ignored");
    try {
        if (!group_.MergeIfOwnCommit(announced.body)) group_.ProcessCommit(announced.body);
    } catch (const mls::RemovedFromGroup &e) {
        // An authentic commit without us: nothing was wrong with it (no op 31); we ask to be added again.
        Warn(std::string("dave: removed from the group: ") + e.what());
        return Rejoin();
    } catch (const mls::Error &e) {
        return RecoverFromInvalid(announced.transitionId, std::string("commit: ") + e.what());
    }
    PrepareEpochTransition(announced.transitionId);
}

void DaveSession::OnWelcome(mls::ByteView payload) {
    dave::TransitionPayload welcome = dave::DecodeTransitionPayload(payload);
    try {
        group_.ProcessWelcome(welcome.body);
    } catch (const mls::Error &e) {
        return RecoverFromInvalid(welcome.transitionId, std::string("welcome: ") + e.what());
    }
    PrepareEpochTransition(welcome.transitionId);
}

void DaveSession::OnPrepareTransition(const json &d) {
    auto version = UnsignedField(d, "protocol_version", 255);
    auto id = UnsignedField(d, "transition_id", 0xffff);
    if (!version || !id) return Warn("dave: malformed prepare_transition ignored");
    PendingTransition transition;
    transition.protocolVersion = static_cast<int>(*version);
    if (transition.protocolVersion == 0) {
        // A downgrade: others may stop encrypting before we execute it, so frames in clear are accepted from now.
        transform_.SetReceivePassthrough(true);
        state_.passthrough = true;
    }
    PrepareTransitionOf(static_cast<uint16_t>(*id), std::move(transition));
}

void DaveSession::OnExecuteTransition(const json &d) {
    auto id = UnsignedField(d, "transition_id", 0xffff);
    if (!id) return Warn("dave: malformed execute_transition ignored");
    Execute(static_cast<uint16_t>(*id));
}

void DaveSession::OnPrepareEpoch(const json &d) {
    auto version = UnsignedField(d, "protocol_version", 255);
    auto epoch = UnsignedField(d, "epoch", UINT64_MAX);
    if (!version || !epoch) return Warn("dave: malformed prepare_epoch ignored");
    // Epoch 1 announces a new group (the server starts over, e.g. we are the sole member left): our group is gone
    // and we join the new one with a fresh KeyPackage. Other epochs need nothing: commits carry them.
    if (*epoch == 1 && *version >= 1 && haveExternalSender_) Rejoin();
}

void DaveSession::PrepareEpochTransition(uint16_t transitionId) {
    PendingTransition transition;
    transition.exporterSecret = group_.ExporterSecret();
    transition.epoch = group_.Epoch();
    transform_.AddReceiveKeys(*transition.exporterSecret, group_.MemberUserIds());
    PrepareTransitionOf(transitionId, std::move(transition));
}

void DaveSession::PrepareTransitionOf(uint16_t transitionId, PendingTransition transition) {
    pending_[transitionId] = std::move(transition);
    if (transitionId == 0) return Execute(0);  // id 0: "now" — nobody waits for anybody
    state_.transitionPending = true;
    Publish();
    callbacks_.sendJson(static_cast<int>(Op::TransitionReady), json{{"transition_id", transitionId}});
}

void DaveSession::Execute(uint16_t transitionId) {
    auto it = pending_.find(transitionId);
    if (it == pending_.end()) {
        Warn("dave: execute_transition " + std::to_string(transitionId) + " was never prepared; ignored");
        return;
    }
    PendingTransition transition = std::move(it->second);
    // Transitions prepared before this one are superseded by it.
    pending_.erase(pending_.begin(), std::next(it));
    if (transition.exporterSecret) {
        transform_.SetSendKey(*transition.exporterSecret);
        state_.epoch = transition.epoch;
    }
    if (transition.protocolVersion == 0) {
        transform_.SetPassthrough(true);
        state_.passthrough = true;
    } else if (state_.passthrough) {
        // An upgrade: we encrypt from now; frames still in clear are accepted for the decryptors' window.
        transform_.SetPassthrough(false);
        state_.passthrough = false;
    }
    state_.protocolVersion = transition.protocolVersion;
    state_.transitionPending = !pending_.empty();
    Publish();
}

void DaveSession::Rejoin() {
    pending_.clear();
    state_.transitionPending = false;
    mls::Bytes keyPackage = group_.ResetAndCreateKeyPackage();
    callbacks_.sendBinary(dave::EncodeClientBinary(Op::KeyPackage, keyPackage));
    Publish();
}

void DaveSession::RecoverFromInvalid(uint16_t transitionId, const std::string &why) {
    Warn("dave: invalid " + why + "; asking to be re-added");
    callbacks_.sendJson(static_cast<int>(Op::InvalidCommitWelcome), json{{"transition_id", transitionId}});
    Rejoin();
}

std::string DaveSession::PrivacyCode() const {
    if (!group_.InGroup()) return {};
    return DisplayableCode(group_.EpochAuthenticator());
}

void DaveSession::Publish() {
    if (state_ == published_) return;
    published_ = state_;
    if (callbacks_.stateChanged) callbacks_.stateChanged(state_);
}

void DaveSession::Warn(const std::string &message) const {
    if (callbacks_.warn) callbacks_.warn(message);
}

std::string DisplayableCode(mls::ByteView data, std::size_t digits, std::size_t groupSize) {
    if (groupSize == 0 || groupSize > 8 || digits % groupSize != 0) {
        throw std::invalid_argument("displayable code: digits must be a multiple of a group size of 1 to 8");
    }
    if (data.size() < digits) throw std::invalid_argument("displayable code: not enough data");
    uint64_t modulus = 1;
    for (std::size_t i = 0; i < groupSize; ++i) modulus *= 10;
    std::string code;
    code.reserve(digits);
    for (std::size_t i = 0; i < digits; i += groupSize) {
        uint64_t value = 0;
        for (std::size_t j = 0; j < groupSize; ++j) value = (value << 8) | data[i + j];
        std::string group = std::to_string(value % modulus);
        code.append(groupSize - group.size(), '0');
        code += group;
    }
    return code;
}

}  // namespace svcpp::core::voice::e2ee
