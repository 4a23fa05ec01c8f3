// A private PulseAudio daemon for the Pulse backend suite: started as a child process with a null sink ("vsink", whose
// monitor source "vsink.monitor" is a real-time loopback of what is played) and a null source ("vsrc"), on a socket
// in a temporary directory; PULSE_SERVER points this process at it. Stopped (SIGTERM to its PID) and its directory
// removed on destruction; it also gets SIGTERM if the test process dies first.
#pragma once
#include <string>
#include <sys/types.h>

class PulseDaemon {
  public:
    /** Starts the daemon and waits until its socket accepts connections. Empty error on success. */
    std::string Start();
    ~PulseDaemon();
    const std::string &Directory() const { return dir_; }
    /** The daemon's own log (stderr), for failure messages. */
    std::string Log() const;

  private:
    std::string dir_;
    pid_t pid_ = -1;
};
