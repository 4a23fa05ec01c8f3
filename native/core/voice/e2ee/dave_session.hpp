// The DAVE session of one call, without I/O: it reads the DAVE opcodes the voice gateway receives (21–31, JSON and
// binary), drives the call's MLS group (DaveMlsGroup) and keys the media cryptor (DaveFrameTransform), and answers
// through callbacks. The gateway client owns the socket, sequence numbers and reconnection.
//
//   Session Description (dave_protocol_version 1) ─► op 25 external sender ─► we send op 26 KeyPackage
//   op 27 proposals ─► we commit them all ─► op 28 commit (+ Welcome when it adds)
//   op 29 commit + transition id ─► ours won: merge it, else process theirs ─┐
//   op 30 Welcome + transition id ─► join ───────────────────────────────────┴► receive keys of the new epoch installed
//        at once (a sender may switch before us) ─► op 23 ready ─► op 22 execute: our send key switches
//   transition id 0 ─► executed at once (nobody waits for anyone)
//   a commit or Welcome we cannot process ─► op 31 {transition_id} and a fresh op 26 (the server removes and re-adds
//   us) op 24 epoch 1 ─► a new group is being formed (e.g. we are the sole member left): fresh op 26 op 21
//   protocol_version 0 ─► a downgrade: frames in clear accepted now, sent in clear from op 22 (passthrough);
//        an upgrade back to 1 ends passthrough at its execute. The passthrough windows exist only around these.
//
// Not thread-safe: call it from one thread (the voice gateway's). The frame transform it keys is safe to use from the
// media threads meanwhile.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "voice/e2ee/dave_framing.hpp"
#include "voice/e2ee/dave_frame_transform.hpp"
#include "voice/e2ee/dave_mls.hpp"

namespace svcpp::core::voice::e2ee {

/** What a game can show and a support engineer can read: is the call end-to-end encrypted right now, and how. */
struct DaveEncryptionState {
    int protocolVersion = 0;         // the call's DAVE protocol version (0 = transport encryption only)
    uint64_t epoch = 0;              // the MLS epoch our media is encrypted in (0 = no group yet)
    bool transitionPending = false;  // a commit/Welcome was processed, its execute_transition has not come yet
    bool passthrough = false;        // frames go (or may come) in clear: a downgrade is in progress or done
    bool operator==(const DaveEncryptionState &) const = default;
};

struct DaveSessionCallbacks {
    /** A binary client message (u8 opcode | payload), for the voice gateway to send. */
    std::function<void(mls::Bytes message)> sendBinary;
    /** A JSON client message {op, d}. */
    std::function<void(int op, const nlohmann::json &d)> sendJson;
    std::function<void(const DaveEncryptionState &)> stateChanged;
    /** Diagnostics (never key material): a message dropped and why. */
    std::function<void(const std::string &message)> warn;
};

class DaveSession {
  public:
    DaveSession(DaveMlsGroup &group, DaveFrameTransform &transform, DaveSessionCallbacks callbacks);

    /** Op 4's dave_protocol_version: 0 = no DAVE in this call (frames in clear), 1 = DAVE. */
    void OnSessionDescription(int daveProtocolVersion);
    /** A JSON DAVE opcode (21, 22, 24) with its "d". Other opcodes and malformed payloads are ignored with a warning.
     */
    void OnJson(int op, const nlohmann::json &d);
    /** A binary DAVE message already stripped of its sequence number (DecodeServerBinary). */
    void OnBinary(dave::Op op, mls::ByteView payload);

    DaveEncryptionState State() const { return state_; }
    /** The call's privacy code (30 digits) for the current epoch, empty without a group. */
    std::string PrivacyCode() const;

  private:
    struct PendingTransition {
        int protocolVersion = dave::kProtocolVersion;
        std::optional<mls::Bytes> exporterSecret;  // set when the transition switches to a new epoch
        uint64_t epoch = 0;
    };

    void OnExternalSender(mls::ByteView payload);
    void OnProposals(mls::ByteView payload);
    void OnAnnounceCommit(mls::ByteView payload);
    void OnWelcome(mls::ByteView payload);
    void OnPrepareTransition(const nlohmann::json &d);
    void OnExecuteTransition(const nlohmann::json &d);
    void OnPrepareEpoch(const nlohmann::json &d);

    /** A new epoch is held: its receive keys go in now, the send key waits for the transition's execute. */
    void PrepareEpochTransition(uint16_t transitionId);
    void PrepareTransitionOf(uint16_t transitionId, PendingTransition transition);
    void Execute(uint16_t transitionId);
    /** Our group state is gone (op 31 sent, or a new group): a fresh KeyPackage goes out. */
    void Rejoin();
    void RecoverFromInvalid(uint16_t transitionId, const std::string &why);
    void Publish();
    void Warn(const std::string &message) const;

    DaveMlsGroup &group_;
    DaveFrameTransform &transform_;
    DaveSessionCallbacks callbacks_;
    bool haveExternalSender_ = false;
    std::map<uint16_t, PendingTransition> pending_;
    DaveEncryptionState state_;
    DaveEncryptionState published_;
};

/**
 * The displayable code DAVE derives from bytes (its privacy code and fingerprints): `digits` decimal digits made of
 * groups of `groupSize` digits, each group the next `groupSize` bytes read big-endian modulo 10^groupSize.
 * Throws std::invalid_argument when `data` is shorter than `digits` bytes or digits is not a multiple of groupSize.
 */
std::string DisplayableCode(mls::ByteView data, std::size_t digits = 30, std::size_t groupSize = 5);

}  // namespace svcpp::core::voice::e2ee
