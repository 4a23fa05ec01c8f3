// Conversions the generated marshalling uses between C handles/values and core values.
#pragma once
#include <cmath>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "client/client.hpp"
#include "support/guard.hpp"
#include "support/handles.hpp"
#include "support/strings.hpp"
#include "svcpp.h"

namespace svcpp::capi {

using ClientPtr = std::shared_ptr<core::Client>;

/** The opaque pointer of a possibly-NULL handle pointer. */
template <class H>
const void *OpaqueOf(const H *h) {
    return h ? h->opaque : nullptr;
}

/** A copy of the value behind a required object input (NullArgument / InvalidHandle). */
template <class T, class H>
T CopyIn(const H *handle, const char *what) {
    Require(handle, what);
    Locked<T> obj(handle->opaque, what);
    return *obj;
}

/** An optional object input: NULL = absent. */
template <class T, class H>
std::optional<T> CopyInOptional(const H *handle, const char *what) {
    if (!handle) return std::nullopt;
    return CopyIn<T>(handle, what);
}

/** Writes a new handle holding value into *out. */
template <class T, class H>
void OutObject(T value, H *out, const char *what) {
    Require(out, what);
    out->opaque = NewBox<T>(std::move(value));
}

template <class E>
E InEnum(int32_t raw, bool (*known)(int32_t), const char *what) {
    if (!known(raw))
        ThrowAbiError(core::Errc::InvalidArgument, what, ": unknown enum value ", static_cast<long long>(raw));
    return static_cast<E>(raw);
}

inline float InFloat(float v, const char *what) {
    if (std::isnan(v)) ThrowAbiError(core::Errc::InvalidArgument, what, " is NaN");
    return v;
}

template <class I>
I InMin(I v, I min, const char *what) {
    static_assert(std::is_integral_v<I>, "InMin takes integers");
    if (v < min) {
        if constexpr (std::is_signed_v<I>) {
            ThrowAbiError(core::Errc::InvalidArgument, what, " must be at least ", static_cast<long long>(min));
        } else {
            ThrowAbiError(core::Errc::InvalidArgument, what, " must be at least ",
                          static_cast<unsigned long long>(min));
        }
    }
    return v;
}

template <class T, class H>
void DropValue(H *self) {
    if (!self) ThrowAbiError(core::Errc::InvalidHandle, "self", " is NULL");
    if (!self->opaque) return;  // dropping a zeroed handle is a no-op
    Ref<T> ref(self->opaque, "self");
    if (registry::Remove(&ref.box())) registry::Release(&ref.box());  // the handle's own reference
    self->opaque = nullptr;
}

template <class T, class H>
bool IsLive(const H *self) {
    if (!self || !self->opaque) return false;
    BoxBase *box = registry::Acquire(self->opaque, TagOf<T>());
    registry::Release(box);
    return box != nullptr;
}

/** A live handle (UserHandle, …) is valid while its object is live and the entity is still in its client's cache. */
template <class T, class H>
bool IsLiveHandle(const H *self) {
    if (!IsLive<T>(self)) return false;
    try {
        Locked<T> obj(self->opaque, "self");
        return obj->IsValid();
    } catch (const core::AbiError &) {
        return false;  // dropped between the two checks
    }
}

/** The live client behind a handle (InvalidHandle when dropped or not a client). */
ClientPtr ClientOf(const Svcpp_Client *self);
void InitClient(Svcpp_Client *self, const core::ClientCreateOptions &options);
void DropClient(Svcpp_Client *self);
bool IsLiveClient(const Svcpp_Client *self);

/**
 * The live client behind a handle for the length of one call, held by its handle's box (a call in flight keeps the
 * box alive) instead of a copy of its shared pointer: two atomic operations fewer than ClientOf on every Client
 * method. InvalidHandle when the handle is zeroed, dropped or not a client; a destroyed client answers `whenDestroyed`:
 * ClientDestroyed (ClientOf's rule, every method), or InvalidHandle for the lookup snapshots, which treat a dropped
 * client like the lookup does (IsLiveClient).
 */
class ClientRef {
  public:
    explicit ClientRef(const Svcpp_Client *self, core::Errc whenDestroyed = core::Errc::ClientDestroyed)
        : ref_(OpaqueOf(self), "self"), client_(ref_.box().value.get()) {
        if (client_->IsDestroyed()) throw core::AbiError(whenDestroyed, "the client was dropped");
    }
    core::Client *operator->() const { return client_; }
    core::Client &operator*() const { return *client_; }

  private:
    Ref<ClientPtr> ref_;
    core::Client *client_;
};

/** Keeps a rejected registration from freeing the host's user data (a non-Ok call took nothing). */
class KeepUserDataOnThrow {
  public:
    explicit KeepUserDataOnThrow(core::UserData &u) : user_(u), uncaught_(std::uncaught_exceptions()) {}
    ~KeepUserDataOnThrow() {
        if (std::uncaught_exceptions() > uncaught_) user_.Disown();
    }

  private:
    core::UserData &user_;
    int uncaught_;
};

}  // namespace svcpp::capi
