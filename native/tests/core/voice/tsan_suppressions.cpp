// ThreadSanitizer suppressions for the voice suites (compiled in only under -fsanitize=thread).
// libpulse is not instrumented: its threads (the context's mainloop and each pa_simple stream's) hand packets over
// through lock-free ring buffers built on atomics TSan cannot see, so it reports races inside libpulsecommon between
// memcpy calls that are in fact ordered. Only frames inside that library are suppressed; our code is still checked.
#if defined(__SANITIZE_THREAD__)
// Default visibility: the TSan runtime (a shared library) looks the function up in the executable.
extern "C" __attribute__((visibility("default"))) const char *__tsan_default_suppressions() {
    return "race:libpulsecommon\n";
}
#endif
