#include "client/client_registry.hpp"
#include "support/marshal.hpp"

namespace svcpp::capi {

ClientPtr ClientOf(const Svcpp_Client *self) {
    Ref<ClientPtr> ref(OpaqueOf(self), "self");
    ClientPtr client = ref.box().value;
    if (client->IsDestroyed()) throw core::AbiError(core::Errc::ClientDestroyed, "the client was dropped");
    return client;
}

void InitClient(Svcpp_Client *self, const core::ClientCreateOptions &options) {
    Require(self, "self");
    self->opaque = NewBox<ClientPtr>(core::Client::Create(options));
}

void DropClient(Svcpp_Client *self) {
    if (!self) throw core::AbiError(core::Errc::InvalidHandle, "self is NULL");
    if (!self->opaque) return;
    Ref<ClientPtr> ref(self->opaque, "self");
    ref.box().value->Destroy();  // Busy from another thread while pumped: the handle stays valid
    if (registry::Remove(&ref.box())) registry::Release(&ref.box());
    self->opaque = nullptr;
}

bool IsLiveClient(const Svcpp_Client *self) {
    if (!self || !self->opaque) return false;
    BoxBase *box = registry::Acquire(self->opaque, TagOf<ClientPtr>());
    const bool live = box && !static_cast<Box<ClientPtr> *>(box)->value->IsDestroyed();
    registry::Release(box);
    return live;
}

}  // namespace svcpp::capi
