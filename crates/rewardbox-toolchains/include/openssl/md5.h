/* OpenSSL's MD5 interface (MD5_Init, MD5_Update, MD5_Final, MD5), header-only, for programs that
 * benchmarks compile with -lcrypto (HumanEval-X's CPP/162). Written for rewardbox from RFC 1321;
 * the digests are checked against Python's hashlib in crates/rewardbox-toolchains/tests. */
#ifndef REWARDBOX_OPENSSL_MD5_H
#define REWARDBOX_OPENSSL_MD5_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MD5_CBLOCK 64
#define MD5_LBLOCK (MD5_CBLOCK / 4)
#define MD5_DIGEST_LENGTH 16

typedef unsigned int MD5_LONG;

typedef struct MD5state_st {
    MD5_LONG A, B, C, D;
    MD5_LONG Nl, Nh;
    MD5_LONG data[MD5_LBLOCK];
    unsigned int num;
} MD5_CTX;

static inline uint32_t rewardbox_md5_rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }

static inline void rewardbox_md5_block(MD5_CTX *c, const unsigned char *p) {
    static const uint32_t K[64] = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
    static const int S[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
    uint32_t m[16];
    for (int i = 0; i < 16; i++)
        m[i] = (uint32_t)p[4 * i] | ((uint32_t)p[4 * i + 1] << 8) | ((uint32_t)p[4 * i + 2] << 16) |
               ((uint32_t)p[4 * i + 3] << 24);
    uint32_t a = c->A, b = c->B, cc = c->C, d = c->D;
    for (int i = 0; i < 64; i++) {
        uint32_t f;
        int g;
        switch (i / 16) {
        case 0: f = (b & cc) | (~b & d); g = i; break;
        case 1: f = (d & b) | (~d & cc); g = (5 * i + 1) % 16; break;
        case 2: f = b ^ cc ^ d; g = (3 * i + 5) % 16; break;
        default: f = cc ^ (b | ~d); g = (7 * i) % 16; break;
        }
        uint32_t next = b + rewardbox_md5_rotl(a + f + K[i] + m[g], S[i / 16][i % 4]);
        a = d;
        d = cc;
        cc = b;
        b = next;
    }
    c->A += a;
    c->B += b;
    c->C += cc;
    c->D += d;
}

static inline int MD5_Init(MD5_CTX *c) {
    memset(c, 0, sizeof *c);
    c->A = 0x67452301;
    c->B = 0xefcdab89;
    c->C = 0x98badcfe;
    c->D = 0x10325476;
    return 1;
}

static inline int MD5_Update(MD5_CTX *c, const void *data, size_t len) {
    const unsigned char *in = (const unsigned char *)data;
    unsigned char *buffer = (unsigned char *)c->data;
    uint64_t bits = ((uint64_t)c->Nh << 32 | c->Nl) + ((uint64_t)len << 3);
    c->Nl = (MD5_LONG)bits;
    c->Nh = (MD5_LONG)(bits >> 32);
    while (len > 0) {
        size_t take = MD5_CBLOCK - c->num;
        if (take > len) take = len;
        memcpy(buffer + c->num, in, take);
        c->num += (unsigned int)take;
        in += take;
        len -= take;
        if (c->num == MD5_CBLOCK) {
            rewardbox_md5_block(c, buffer);
            c->num = 0;
        }
    }
    return 1;
}

static inline int MD5_Final(unsigned char *md, MD5_CTX *c) {
    uint64_t bits = (uint64_t)c->Nh << 32 | c->Nl;
    unsigned char pad[MD5_CBLOCK * 2] = {0x80};
    size_t pad_len = (c->num < 56 ? 56 : 120) - c->num;
    unsigned char length[8];
    for (int i = 0; i < 8; i++) length[i] = (unsigned char)(bits >> (8 * i));
    MD5_Update(c, pad, pad_len);
    MD5_Update(c, length, 8);
    MD5_LONG words[4] = {c->A, c->B, c->C, c->D};
    for (int i = 0; i < 16; i++) md[i] = (unsigned char)(words[i / 4] >> (8 * (i % 4)));
    memset(c, 0, sizeof *c);
    return 1;
}

static inline unsigned char *MD5(const unsigned char *d, size_t n, unsigned char *md) {
    static unsigned char digest[MD5_DIGEST_LENGTH];
    MD5_CTX c;
    if (md == NULL) md = digest;
    MD5_Init(&c);
    MD5_Update(&c, d, n);
    MD5_Final(md, &c);
    return md;
}

#endif
