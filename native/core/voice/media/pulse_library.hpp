// The PulseAudio client functions the Pulse backend uses, resolved with dlopen/dlsym from libpulse.so.0 and
// libpulse-simple.so.0 at run time, so libsvcpp.so carries no link-time dependency on a sound server. The pulse
// headers (libpulse-dev) are used at build time for the types and signatures only.
#pragma once
#include <pulse/pulseaudio.h>
#include <pulse/simple.h>

#include <string>

namespace svcpp::core::voice {

struct PulseLibrary {
#define SVCPP_PULSE_FN(name) decltype(&::name) name = nullptr
    SVCPP_PULSE_FN(pa_threaded_mainloop_new);
    SVCPP_PULSE_FN(pa_threaded_mainloop_free);
    SVCPP_PULSE_FN(pa_threaded_mainloop_start);
    SVCPP_PULSE_FN(pa_threaded_mainloop_stop);
    SVCPP_PULSE_FN(pa_threaded_mainloop_lock);
    SVCPP_PULSE_FN(pa_threaded_mainloop_unlock);
    SVCPP_PULSE_FN(pa_threaded_mainloop_wait);
    SVCPP_PULSE_FN(pa_threaded_mainloop_signal);
    SVCPP_PULSE_FN(pa_threaded_mainloop_get_api);
    SVCPP_PULSE_FN(pa_context_new);
    SVCPP_PULSE_FN(pa_context_unref);
    SVCPP_PULSE_FN(pa_context_connect);
    SVCPP_PULSE_FN(pa_context_disconnect);
    SVCPP_PULSE_FN(pa_context_get_state);
    SVCPP_PULSE_FN(pa_context_errno);
    SVCPP_PULSE_FN(pa_context_set_state_callback);
    SVCPP_PULSE_FN(pa_context_set_subscribe_callback);
    SVCPP_PULSE_FN(pa_context_subscribe);
    SVCPP_PULSE_FN(pa_context_get_server_info);
    SVCPP_PULSE_FN(pa_context_get_sink_info_list);
    SVCPP_PULSE_FN(pa_context_get_source_info_list);
    SVCPP_PULSE_FN(pa_operation_get_state);
    SVCPP_PULSE_FN(pa_operation_unref);
    SVCPP_PULSE_FN(pa_strerror);
    SVCPP_PULSE_FN(pa_simple_new);
    SVCPP_PULSE_FN(pa_simple_free);
    SVCPP_PULSE_FN(pa_simple_read);
    SVCPP_PULSE_FN(pa_simple_write);
#undef SVCPP_PULSE_FN
};

/**
 * Loads the libraries once per process (thread-safe) and keeps them loaded (unloading a library whose threads may
 * still run is unsafe). Null, with `error` set, when a library or a function is missing.
 */
const PulseLibrary *LoadPulseLibrary(std::string *error);

}  // namespace svcpp::core::voice
