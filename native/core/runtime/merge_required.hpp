// The "merge the provisional account first" callback a few calls take beside their completion
// (JoinLinkedLobbyGuild, OpenMessageInPlatform). It rides on an operation of its own so that its user data is released
// on a host thread like every other callback's, exactly once: fired (before the call's completion) when the call finds
// a merge is required, else ended without running.
#pragma once
#include <memory>
#include <utility>

#include "generated/callbacks.hpp"
#include "runtime/operations.hpp"

namespace svcpp::core {

class MergeRequired {
  public:
    MergeRequired(Operations &operations, ClientProvisionalUserMergeRequiredCallback &&cb)
        : op_(ResultOperation::Begin(operations, ResultOperation::Cb{[fn = std::move(cb.fn)](const ClientResult &r) {
                                                                         if (r.type == ErrorType::None && fn) fn();
                                                                     },
                                                                     std::move(cb.owner)})) {}

    /** A merge is required: the callback runs. */
    void Fire() const { op_->Complete(ClientResult{}); }
    /** No merge is required: the callback never runs (its user data is released). */
    void Skip() const { op_->Fail(FailureResult(ErrorType::Aborted, "no merge needed")); }

  private:
    using ResultOperation = Operation<void(const ClientResult &)>;
    std::shared_ptr<ResultOperation> op_;
};

}  // namespace svcpp::core
