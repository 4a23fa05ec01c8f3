#include <gtest/gtest.h>

#include "net/http.hpp"

using svcpp::core::net::Url;

TEST(Url, SchemesAndTheirDefaultPorts) {
    struct Case {
        const char *text;
        const char *scheme;
        uint16_t port;
        bool tls;
    };
    const Case cases[] = {{"http://example.com", "http", 80, false},
                          {"https://example.com", "https", 443, true},
                          {"ws://example.com", "ws", 80, false},
                          {"wss://example.com", "wss", 443, true},
                          {"HTTPS://Example.COM", "https", 443, true}};
    for (const Case &c : cases) {
        const auto url = Url::Parse(c.text);
        ASSERT_TRUE(url) << c.text;
        EXPECT_EQ(url->scheme, c.scheme);
        EXPECT_EQ(url->host, "example.com");
        EXPECT_EQ(url->port, c.port);
        EXPECT_EQ(url->target, "/");
        EXPECT_EQ(url->Tls(), c.tls);
    }
}

TEST(Url, ExplicitPortPathAndQuery) {
    const auto url = Url::Parse("https://127.0.0.1:8787/api/v10/users/@me?with=1&x=%20#fragment");
    ASSERT_TRUE(url);
    EXPECT_EQ(url->host, "127.0.0.1");
    EXPECT_EQ(url->port, 8787);
    EXPECT_EQ(url->target, "/api/v10/users/@me?with=1&x=%20");

    const auto queryOnly = Url::Parse("http://localhost:80?a=b");
    ASSERT_TRUE(queryOnly);
    EXPECT_EQ(queryOnly->target, "/?a=b");
}

TEST(Url, Ipv6Literal) {
    const auto url = Url::Parse("wss://[::1]:9000/gateway?v=10");
    ASSERT_TRUE(url);
    EXPECT_EQ(url->host, "::1");
    EXPECT_EQ(url->port, 9000);
    EXPECT_EQ(url->target, "/gateway?v=10");

    const auto defaultPort = Url::Parse("http://[2001:db8::1]");
    ASSERT_TRUE(defaultPort);
    EXPECT_EQ(defaultPort->host, "2001:db8::1");
    EXPECT_EQ(defaultPort->port, 80);
}

TEST(Url, RejectsGarbage) {
    for (const char *text :
         {"", "example.com", "/relative/path", "ftp://example.com/", "http://", "http:///path", "http://exa mple.com/",
          "http://host:/", "http://host:0/", "http://host:65536/", "http://host:12ab/", "http://[::1/",
          "http://[not-an-ip]/", "http://[::1]x/", "http://[fe80::1%eth0]/", "http://[1.2.3.4]/",
          "http://user:pass@host/", "http://host/a b", "http://host/\r\nX-Injected: 1"}) {
        EXPECT_FALSE(Url::Parse(text)) << text;
    }
}
