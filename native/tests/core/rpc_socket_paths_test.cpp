// Where the SDK looks for the local client: an explicit path, SVCPP_IPC_PATH, else discord-ipc-0..9 in the first
// set of XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP, else /tmp.
#include <gtest/gtest.h>

#include <map>

#include "rpc/socket_paths.hpp"

using namespace svcpp::core::rpc;

namespace {
EnvLookup Env(std::map<std::string, std::string> values) {
    return [values = std::move(values)](const std::string &name) -> std::optional<std::string> {
        auto it = values.find(name);
        if (it == values.end()) return std::nullopt;
        return it->second;
    };
}
}  // namespace

TEST(RpcSocketPaths, TheDirectoryIsTheFirstNonEmptyVariableInOrder) {
    EXPECT_EQ(SocketDirectory(Env({{"XDG_RUNTIME_DIR", "/run/user/1000"}, {"TMPDIR", "/var/tmp"}})), "/run/user/1000");
    EXPECT_EQ(SocketDirectory(Env({{"XDG_RUNTIME_DIR", ""}, {"TMPDIR", "/var/tmp/"}})), "/var/tmp");
    EXPECT_EQ(SocketDirectory(Env({{"TMP", "/t1"}, {"TEMP", "/t2"}})), "/t1");
    EXPECT_EQ(SocketDirectory(Env({{"TEMP", "/t2"}})), "/t2");
    EXPECT_EQ(SocketDirectory(Env({})), "/tmp");
}

#ifndef _WIN32
TEST(RpcSocketPaths, TenSlotsInOrder) {
    auto paths = CandidatePaths("", Env({{"XDG_RUNTIME_DIR", "/run/user/1000"}}));
    ASSERT_EQ(paths.size(), 10u);
    EXPECT_EQ(paths.front(), "/run/user/1000/discord-ipc-0");
    EXPECT_EQ(paths.back(), "/run/user/1000/discord-ipc-9");
}
#endif

TEST(RpcSocketPaths, AnExplicitPathWinsOverTheEnvironmentVariableWhichWinsOverTheSearch) {
    auto env = Env({{"XDG_RUNTIME_DIR", "/run/user/1000"}, {"SVCPP_IPC_PATH", "/tmp/launched/discord-ipc-3"}});
    EXPECT_EQ(CandidatePaths("/tmp/test/discord-ipc-0", env), std::vector<std::string>{"/tmp/test/discord-ipc-0"});
    EXPECT_EQ(CandidatePaths("", env), std::vector<std::string>{"/tmp/launched/discord-ipc-3"});
    EXPECT_EQ(CandidatePaths("", Env({{"SVCPP_IPC_PATH", ""}, {"TMPDIR", "/x"}})).size(), 10u);  // empty = unset
}
