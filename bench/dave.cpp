// DAVE (end-to-end encryption) costs, printed (asserts nothing):
//   1. the frame cryptor in a 25-participant call: per 20 ms, our own frame encrypted once and one frame of each of
//      the 24 other senders decrypted — CPU µs per 20 ms and as a share of one core, plus per-frame figures
//   2. an epoch change as the frame cryptor sees it: the MLS key schedule for the new epoch, then the 25 sender
//      ratchets derived from its exporter (DaveFrameTransform::SetEpochKeys)
//   3. the MLS operations a commit is built from: HPKE EncryptWithLabel / DecryptWithLabel (one per copath node of an
//      UpdatePath) and SignWithLabel / VerifyWithLabel (one per commit)
//   4. one whole commit in a 25-member group (mls::GroupState): creating it and processing it — an Add (no path,
//      with its Welcome) and a Remove (with an UpdatePath), right after the group was formed by one add-only commit
//      (so its parent nodes are still blank and the path secret is encrypted to each member's leaf: the costliest
//      case DAVE produces)
//   build/Release/svcpp_bench_dave [--smoke]      (--smoke: a few rounds, about a second, for CI)
// Figures measured while other jobs load the machine are indicative only.
#include <time.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mls/cipher_suite.hpp"
#include "mls/external_proposal.hpp"
#include "mls/group_state.hpp"
#include "mls/key_schedule.hpp"
#include "mls/primitives.hpp"
#include "voice/e2ee/dave_frame_transform.hpp"

using namespace svcpp::core;
using namespace svcpp::core::voice::e2ee;

namespace {

double ThreadCpuUs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

constexpr int kParticipants = 25;
constexpr std::size_t kOpusFrameBytes = 160;  // 64 kbps × 20 ms

void BenchCallFrames(int rounds) {
    SteadyClock clock;
    mls::Bytes exporter(32, 0x5a);
    std::vector<uint64_t> members;
    for (int i = 0; i < kParticipants; ++i) members.push_back(1000 + i);
    // Us (member 0) and the 24 others, each with its own transform as in 25 real clients.
    std::vector<std::unique_ptr<DaveFrameTransform>> clients;
    for (uint64_t id : members) {
        clients.push_back(std::make_unique<DaveFrameTransform>(id, clock));
        clients.back()->SetEpochKeys(exporter, members);
    }
    std::vector<uint8_t> frame(kOpusFrameBytes, 0x42), wire(kOpusFrameBytes + kMaxOpusOverhead), plain(wire.size());
    // Pre-encrypt the others' frames per round (their encryption is their CPU, not ours).
    std::vector<std::vector<std::vector<uint8_t>>> incoming(rounds);
    for (int r = 0; r < rounds; ++r) {
        for (int s = 1; s < kParticipants; ++s) {
            auto size = clients[s]->Encrypt(1, frame, wire);
            incoming[r].emplace_back(wire.begin(), wire.begin() + static_cast<std::ptrdiff_t>(*size));
        }
    }
    DaveFrameTransform &self = *clients[0];
    uint64_t failures = 0;
    double encryptUs = 0, decryptUs = 0;
    for (int r = 0; r < rounds; ++r) {
        double t0 = ThreadCpuUs();
        if (!self.Encrypt(1, frame, wire)) ++failures;
        double t1 = ThreadCpuUs();
        for (int s = 1; s < kParticipants; ++s) {
            if (!self.Decrypt(members[s], 1, incoming[r][s - 1], plain)) ++failures;
        }
        double t2 = ThreadCpuUs();
        encryptUs += t1 - t0;
        decryptUs += t2 - t1;
    }
    double per20ms = (encryptUs + decryptUs) / rounds;
    std::printf("frame cryptor, %d participants, %zu-byte Opus frames, %d rounds of 20 ms:\n", kParticipants,
                kOpusFrameBytes, rounds);
    std::printf("  encrypt own frame          %8.2f µs per frame\n", encryptUs / rounds);
    std::printf("  decrypt one sender's frame %8.2f µs per frame\n", decryptUs / rounds / (kParticipants - 1));
    std::printf("  added CPU per 20 ms        %8.2f µs  (%.3f %% of one core)\n", per20ms, per20ms / 20000.0 * 100);
    std::printf("  failures                   %8llu\n", static_cast<unsigned long long>(failures));
}

void BenchEpochChange(int rounds) {
    SteadyClock clock;
    std::vector<uint64_t> members;
    for (int i = 0; i < kParticipants; ++i) members.push_back(1000 + i);
    DaveFrameTransform self(members[0], clock);
    mls::Bytes initSecret(32, 1), commitSecret(32, 2), psk(32, 0);
    double scheduleUs = 0, ratchetsUs = 0;
    for (int r = 0; r < rounds; ++r) {
        double t0 = ThreadCpuUs();
        mls::GroupContext context{
            mls::Bytes(8, 7), static_cast<uint64_t>(r + 1), mls::Bytes(32, 3), mls::Bytes(32, 4), {}};
        mls::EpochSecrets secrets = mls::DeriveEpochSecrets(initSecret, commitSecret, psk, context.Encode());
        double t1 = ThreadCpuUs();
        self.SetEpochKeys(secrets.exporterSecret, members);
        double t2 = ThreadCpuUs();
        initSecret = secrets.initSecret;
        scheduleUs += t1 - t0;
        ratchetsUs += t2 - t1;
    }
    std::printf("epoch change, %d members, %d rounds:\n", kParticipants, rounds);
    std::printf("  key schedule (epoch secrets)        %8.1f µs\n", scheduleUs / rounds);
    std::printf("  25 sender ratchets from the exporter %7.1f µs\n", ratchetsUs / rounds);
}

void BenchCommitParts(int rounds) {
    auto recipient = mls::primitives::GenerateP256();
    auto signer = mls::primitives::GenerateP256();
    mls::Bytes pathSecret(32, 9), context(120, 1), content(300, 2);
    double sealUs = 0, openUs = 0, signUs = 0, verifyUs = 0;
    for (int r = 0; r < rounds; ++r) {
        double t0 = ThreadCpuUs();
        auto ct = mls::EncryptWithLabel(recipient.publicKey, "UpdatePathNode", context, pathSecret);
        double t1 = ThreadCpuUs();
        auto pt = mls::DecryptWithLabel(recipient.privateKey, "UpdatePathNode", context, ct);
        double t2 = ThreadCpuUs();
        auto signature = mls::SignWithLabel(signer.privateKey, "FramedContentTBS", content);
        double t3 = ThreadCpuUs();
        bool ok = mls::VerifyWithLabel(signer.publicKey, "FramedContentTBS", content, signature);
        double t4 = ThreadCpuUs();
        if (pt != pathSecret || !ok) std::printf("  ERROR: round trip failed\n");
        sealUs += t1 - t0;
        openUs += t2 - t1;
        signUs += t3 - t2;
        verifyUs += t4 - t3;
    }
    std::printf("MLS commit building blocks (suite 2), %d rounds:\n", rounds);
    std::printf("  EncryptWithLabel (HPKE seal)  %8.1f µs\n", sealUs / rounds);
    std::printf("  DecryptWithLabel (HPKE open)  %8.1f µs\n", openUs / rounds);
    std::printf("  SignWithLabel (ECDSA P-256)   %8.1f µs\n", signUs / rounds);
    std::printf("  VerifyWithLabel               %8.1f µs\n", verifyUs / rounds);
}

struct CommitFigures {
    double createUs = 0;
    double processUs = 0;
};

void BenchWholeCommits(int rounds) {
    using namespace mls;
    primitives::KeyPair server = primitives::GenerateP256();
    std::vector<ExternalSender> senders{ExternalSender{server.publicKey, {kCredentialBasic, DaveIdentity(1)}}};
    std::vector<primitives::KeyPair> keys;
    std::vector<KeyPackageBundle> bundles;
    for (int i = 0; i < kParticipants + 1; ++i) {  // the last one is the member the Add benchmark adds
        keys.push_back(primitives::GenerateP256());
        bundles.push_back(CreateDaveKeyPackage(1000 + i, keys.back()));
    }
    const Bytes groupId = ToBytes("bench group");
    auto propose = [&](const GroupState &g, const std::optional<KeyPackage> &added, uint32_t removed) {
        return ProcessExternalProposal(CreateExternalProposal(server.privateKey, 0, groupId, g.Epoch(), added, removed),
                                       senders, groupId, g.Epoch());
    };
    GroupState creator = GroupState::Create(groupId, bundles[0], keys[0].privateKey, senders);
    std::vector<ExternalProposal> adds;
    for (int i = 1; i < kParticipants; ++i) adds.push_back(propose(creator, bundles[i].keyPackage, 0));
    CommitOutput formed = creator.Commit(adds);
    creator.MergePendingCommit();
    GroupState committer = GroupState::Join(*formed.welcome, bundles[1], keys[1].privateKey);
    GroupState receiver = GroupState::Join(*formed.welcome, bundles[2], keys[2].privateKey);

    CommitFigures add, remove;
    for (int r = 0; r < rounds; ++r) {
        for (bool isRemove : {false, true}) {
            ExternalProposal proposal = isRemove ? propose(committer, std::nullopt, kParticipants - 1)
                                                 : propose(committer, bundles[kParticipants].keyPackage, 0);
            std::map<Bytes, ExternalProposal> byRef{{proposal.ref, proposal}};
            GroupState follower = receiver;  // a fresh copy each round: processing moves it to the next epoch
            double t0 = ThreadCpuUs();
            CommitOutput out = committer.Commit({proposal});
            double t1 = ThreadCpuUs();
            follower.ProcessCommit(out.commit, byRef);
            double t2 = ThreadCpuUs();
            committer.DiscardPendingCommit();
            CommitFigures &figures = isRemove ? remove : add;
            figures.createUs += t1 - t0;
            figures.processUs += t2 - t1;
        }
    }
    std::printf("one MLS commit, %d members (ciphersuite 2), %d rounds:\n", kParticipants, rounds);
    std::printf("  Add, no path, with Welcome: create %8.1f µs   process %8.1f µs\n", add.createUs / rounds,
                add.processUs / rounds);
    std::printf("  Remove, with UpdatePath:    create %8.1f µs   process %8.1f µs\n", remove.createUs / rounds,
                remove.processUs / rounds);
}

}  // namespace

int main(int argc, char **argv) {
    bool smoke = argc > 1 && std::strcmp(argv[1], "--smoke") == 0;
    BenchCallFrames(smoke ? 20 : 5000);
    BenchEpochChange(smoke ? 2 : 200);
    BenchCommitParts(smoke ? 2 : 200);
    BenchWholeCommits(smoke ? 1 : 20);
    return 0;
}
