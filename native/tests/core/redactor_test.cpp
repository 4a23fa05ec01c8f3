// Redactor: registered secrets and credential-shaped text never survive into a log line.
#include <gtest/gtest.h>

#include "log/redactor.hpp"

using svcpp::core::Redactor;

TEST(Redactor, ReplacesRegisteredSecretsWhereverTheyAppear) {
    Redactor r;
    r.Add("s3cr3t-access-token-value");
    EXPECT_EQ(r.Apply("got s3cr3t-access-token-value twice: s3cr3t-access-token-value"),
              "got [redacted] twice: [redacted]");
}

TEST(Redactor, IgnoresTooShortSecrets) {
    Redactor r;
    r.Add("abc");
    EXPECT_EQ(r.Apply("abc is fine"), "abc is fine");
}

TEST(Redactor, MasksCredentialShapedTextItWasNeverTold) {
    Redactor r;
    EXPECT_EQ(r.Apply("Authorization: Bearer abc.def-ghi"), "Authorization: Bearer [redacted]");
    EXPECT_EQ(r.Apply("code=xyz&state=1"), "code=[redacted]&state=1");
    EXPECT_EQ(r.Apply(R"({"access_token":"tok123","x":1})"), R"({"access_token":"[redacted]","x":1})");
    EXPECT_EQ(r.Apply("refresh_token=Zz9"), "refresh_token=[redacted]");
}

TEST(Redactor, LeavesOrdinaryLinesAlone) {
    Redactor r;
    r.Add("a-long-secret-value");
    EXPECT_EQ(r.Apply("status Ready"), "status Ready");
}
