/*
 * mrkit.features._triples: the compiled Smatch feature step of the common case.
 *
 *   code_pair(gold_block, system_block, keep) -> (id, n_gold, n_system, codes) | None
 *
 * Reads one PENMAN block of the gold file and one of the system file (each holding one
 * graph: comments, then the graph, then comments) straight into the integer-coded
 * Smatch triples of the pair, with no Python object per node or triple:
 *
 *   instance (v, concept), attribute (v, role, constant), relation (v, role, w) with
 *   inverted roles turned to their base direction (unless the role is in `keep`), one
 *   top triple for the root; labels, roles and constants lower-cased; duplicates once.
 *
 * That is exactly what penman.py's parse_block + features/triples.py's triples compute
 * (see there for the conventions), for the subset of PENMAN it accepts. Anything else --
 * a character outside printable ASCII in the graph, a control character, an unexpected
 * token, a grammar error, a variable defined twice, more than one graph, an alignment
 * index of more than 9 digits, an unusual metadata line -- gives None, and the caller
 * takes the general path (which also reports errors). The result never differs from the
 * general path's: tests/features/test_triples_compiled.py compares them.
 *
 * `id` is the gold graph's `# ::id` metadata value as penman.py reads it (None: no id
 * key in the metadata). `n_gold`, `n_system`: the numbers of triples. `codes`: bytes of
 * int64, the alignment problem for mrkit.align._kernel.smatch_stage:
 *
 *   nA, nB, nEa, nEb, nFa, nFb,
 *   fa_ptr[nA + 1], fa[nFa], fb_ptr[nB + 1], fb[nFb],   unary features per node, sorted
 *   ea[3 nEa], eb[3 nEb]                                 edges (source, target, label)
 *
 * Nodes are numbered in the order they are written (as the general path does); feature
 * and label ids are shared by the two graphs of the pair.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* PyErr_NoMemory from code that may run without the GIL (pair_codes_units releases it):
 * takes the GIL for the call when this thread does not hold it */
static void set_nomem(void) {
    PyGILState_STATE s = PyGILState_Ensure();
    PyErr_NoMemory();
    PyGILState_Release(s);
}

/* ------------------------------------------------------------ string table */

typedef struct {
    char *buf;            /* lower-cased (or verbatim) bytes of every string */
    size_t len, cap;
    int64_t *off;         /* per id: offset, length */
    int32_t *slen;
    int n, ncap;
    int32_t *slots;       /* open addressing: id + 1, 0 = empty */
    int nslots;
} strtab;

/* the hash of a string: its bytes as 8-byte words (memcpy order, the last one padded
 * with zero bytes), mixed a word at a time (text_id computes it while it copies; the
 * numbers of the strings do not depend on it, only where they sit in the table) */
#define HASH_SEED 0x243F6A8885A308D3ULL
static inline uint64_t hash_word(uint64_t h, uint64_t x) { return (h ^ x) * 0x9E3779B97F4A7C15ULL; }
static inline uint64_t hash_end(uint64_t h, size_t n) {
    h ^= (uint64_t)n;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ULL;
    return h ^ (h >> 32);
}

static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = HASH_SEED;
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t x;
        memcpy(&x, s + k, 8);
        h = hash_word(h, x);
    }
    if (k < n) {
        uint64_t x = 0;
        memcpy(&x, s + k, n - k);
        h = hash_word(h, x);
    }
    return hash_end(h, n);
}

static int st_init(strtab *t, int nslots, size_t cap) {
    memset(t, 0, sizeof *t);
    t->nslots = nslots;
    t->slots = calloc((size_t)nslots, sizeof(int32_t));
    t->cap = cap ? cap : 64;
    t->buf = malloc(t->cap);
    t->ncap = 64;
    t->off = malloc(sizeof(int64_t) * t->ncap);
    t->slen = malloc(sizeof(int32_t) * t->ncap);
    return (t->slots && t->buf && t->off && t->slen) ? 0 : -1;
}

static void st_free(strtab *t) {
    free(t->buf); free(t->off); free(t->slen); free(t->slots);
}

/* st_init(t, nslots, cap)'s state again (an empty table), keeping what was allocated; a
 * table grown by a large graph (more than 4,096 slots) is given back */
static int st_reset(strtab *t, int nslots, size_t cap) {
    if (t->nslots > 4096) {
        st_free(t);
        return st_init(t, nslots, cap);
    }
    t->len = 0;
    t->n = 0;
    memset(t->slots, 0, sizeof(int32_t) * (size_t)t->nslots);
    return 0;
}

static int st_grow_slots(strtab *t) {
    int ns = t->nslots * 2;
    int32_t *s = calloc((size_t)ns, sizeof(int32_t));
    if (!s) return -1;
    for (int id = 0; id < t->n; id++) {
        uint64_t h = hash_bytes(t->buf + t->off[id], (size_t)t->slen[id]);
        int k = (int)(h & (uint64_t)(ns - 1));
        while (s[k]) k = (k + 1) & (ns - 1);
        s[k] = id + 1;
    }
    free(t->slots);
    t->slots = s;
    t->nslots = ns;
    return 0;
}

/* id of the string s[0..n) of hash h (hash_bytes), or -3 when absent */
static int st_find_h(const strtab *t, const char *s, size_t n, uint64_t h) {
    int mask = t->nslots - 1, k = (int)(h & (uint64_t)mask);
    while (t->slots[k]) {
        int id = t->slots[k] - 1;
        if ((size_t)t->slen[id] == n && memcmp(t->buf + t->off[id], s, n) == 0) return id;
        k = (k + 1) & mask;
    }
    return -3;
}

static int st_find(const strtab *t, const char *s, size_t n) { return st_find_h(t, s, n, hash_bytes(s, n)); }

/* adds the string s[0..n) at free slot k: its bytes padded with zeros to whole 8-byte
 * words (st_id_w compares words); its id, -1 on memory failure */
static int st_add(strtab *t, const char *s, size_t n, int k) {
    size_t padded = (n + 7) & ~(size_t)7;
    if (t->len + padded > t->cap) {
        size_t cap = (t->len + padded) * 2;
        char *b = realloc(t->buf, cap);
        if (!b) return -1;
        t->buf = b;
        t->cap = cap;
    }
    if (t->n == t->ncap) {
        int nc = t->ncap * 2;
        int64_t *o = realloc(t->off, sizeof(int64_t) * nc);
        if (!o) return -1;
        t->off = o;
        int32_t *l = realloc(t->slen, sizeof(int32_t) * nc);
        if (!l) return -1;
        t->slen = l;
        t->ncap = nc;
    }
    if (padded) memset(t->buf + t->len + padded - 8, 0, 8);
    memcpy(t->buf + t->len, s, n);
    t->off[t->n] = (int64_t)t->len;
    t->slen[t->n] = (int32_t)n;
    t->len += padded;
    t->slots[k] = t->n + 1;
    return t->n++;
}

/* id of the string s[0..n) of hash h (added if new); -1 on memory failure */
static int st_id_h(strtab *t, const char *s, size_t n, uint64_t h) {
    if ((t->n + 1) * 2 > t->nslots && st_grow_slots(t) < 0) return -1;
    int mask = t->nslots - 1, k = (int)(h & (uint64_t)mask);
    while (t->slots[k]) {
        int id = t->slots[k] - 1;
        if ((size_t)t->slen[id] == n && memcmp(t->buf + t->off[id], s, n) == 0) return id;
        k = (k + 1) & mask;
    }
    return st_add(t, s, n, k);
}

/* st_id_h (lookup_only 0) or st_find_h (1) of a string s[0..n) padded with zeros to whole
 * words, as the table keeps its strings: compared a word at a time, inlined */
static inline int st_id_w(strtab *t, const char *s, size_t n, uint64_t h, int lookup_only) {
    if (!lookup_only && (t->n + 1) * 2 > t->nslots && st_grow_slots(t) < 0) return -1;
    int mask = t->nslots - 1, k = (int)(h & (uint64_t)mask);
    while (t->slots[k]) {
        int id = t->slots[k] - 1;
        if ((size_t)t->slen[id] == n) {
            const char *e = t->buf + t->off[id];
            size_t q = 0;
            for (; q < n; q += 8) {
                uint64_t x, y;
                memcpy(&x, e + q, 8);
                memcpy(&y, s + q, 8);
                if (x != y) break;
            }
            if (q >= n) return id;
        }
        k = (k + 1) & mask;
    }
    return lookup_only ? -3 : st_add(t, s, n, k);
}

static int st_id(strtab *t, const char *s, size_t n) { return st_id_h(t, s, n, hash_bytes(s, n)); }

/* ------------------------------------------------------------------ lexer */

enum { T_END, T_COMMENT, T_STRING, T_LPAREN, T_RPAREN, T_SLASH, T_ROLE, T_SYMBOL, T_ALIGN, T_BAD };

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n, pos;
    int type;
    Py_ssize_t a, b;    /* token text [a, b) */
    int sentinel;       /* one-byte text whose last character is not a name character */
} lexer;

/* [^\s"()/:~], \s as Python's str whitespace (DEL and ASCII controls are left to the
 * general path) */
static inline int name_char_ascii(Py_UCS4 c) {
    return c > ' ' && c < 127 && c != '"' && c != '(' && c != ')' && c != '/' && c != ':' && c != '~';
}

static inline int is_space_ascii(Py_UCS4 c) {
    return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31);
}

/* the two tests of the ASCII characters, by table (filled at import from the above) */
enum { C_NAME = 1, C_SPACE = 2 };
static unsigned char ascii_class[128];

/* the same two tests of the characters of a one-byte (Latin-1) string, all 256 */
static unsigned char latin1_class[256];

/* the one-byte characters a comment line goes on over without a second look: not a line
 * end, not a character the loop below stops at (controls but tab, DEL, line breaks) */
static unsigned char comment_ok[256];

static void fill_classes(void) {
    for (Py_UCS4 c = 0; c < 128; c++)
        ascii_class[c] = (unsigned char)((name_char_ascii(c) ? C_NAME : 0) | (is_space_ascii(c) ? C_SPACE : 0));
    for (Py_UCS4 c = 0; c < 256; c++)
        latin1_class[c] = (unsigned char)(c < 128 ? ascii_class[c]
                                          : Py_UNICODE_ISSPACE(c) ? C_SPACE : C_NAME);
    for (Py_UCS4 c = 0; c < 256; c++)
        comment_ok[c] = c == '\t' || (c >= ' ' && c != 0x7f && !(c >= 128 && Py_UNICODE_ISLINEBREAK(c)));
}

static inline int name_char(Py_UCS4 c) {
    if (c >= 128) return !Py_UNICODE_ISSPACE(c);
    return ascii_class[c] & C_NAME;
}

static inline int is_space(Py_UCS4 c) {
    if (c >= 128) return Py_UNICODE_ISSPACE(c);
    return ascii_class[c] & C_SPACE;
}

static inline int is_digit(unsigned c) { return c >= '0' && c <= '9'; }

/* name_char and is_space of a character of a string of `kind` (one byte: by table) */
#define NAME_CHAR(c) (kind == PyUnicode_1BYTE_KIND ? latin1_class[(c)] & C_NAME : name_char(c))
#define IS_SPACE(c) (kind == PyUnicode_1BYTE_KIND ? latin1_class[(c)] & C_SPACE : is_space(c))

/* p past the run of name characters of one-byte text d (n long) from p; with `sentinel`
 * (the text's last character is not one) the run ends before the end untested */
#define NAME_RUN1(d, p, n, sentinel)                                                     \
    do {                                                                                 \
        if ((sentinel) && (p) < (n)) {                                                   \
            while (latin1_class[(d)[(p)]] & C_NAME) (p)++;                               \
        } else {                                                                         \
            while ((p) < (n) && (latin1_class[(d)[(p)]] & C_NAME)) (p)++;                \
        }                                                                                \
    } while (0)

/* next token; T_BAD for anything the fast path leaves to the general one */
#define S(k) PyUnicode_READ(kind, data, (k))

/* (inlined per string kind: one byte per character is the common case) */
static inline __attribute__((always_inline)) void next_token_k(lexer *lx, const int kind) {
    const void *data = lx->data;
    Py_ssize_t n = lx->n, p = lx->pos;
    for (;;) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (kind == PyUnicode_1BYTE_KIND) {   /* runs of spaces (indentation) 8 at a time */
            const Py_UCS1 *d = (const Py_UCS1 *)data;
            while (n - p >= 8) {
                uint64_t x;
                memcpy(&x, d + p, 8);
                x ^= 0x2020202020202020ULL;
                if (x) { p += __builtin_ctzll(x) >> 3; break; }   /* the first byte that is not ' ' */
                p += 8;
            }
        }
#endif
        if (p >= n) { lx->type = T_END; lx->pos = p; return; }
        if (IS_SPACE(S(p))) { p++; continue; }
        break;
    }
    Py_UCS4 c = S(p);
    lx->a = p;
    if (c == '#') {
        /* to the end of the line; line breaks other than \n, \r and control characters
         * are left to the general path (str.splitlines() would split there) */
        p++;
        if (kind == PyUnicode_1BYTE_KIND) {
            /* 8 printable ASCII characters at a time (bytes in [0x20, 0x7e]: high bits
             * clear, x + 0x60 sets every high bit, x + 1 none), then one by one */
            const Py_UCS1 *d = (const Py_UCS1 *)data;
            const uint64_t H = 0x8080808080808080ULL;
            while (n - p >= 8) {
                uint64_t x;
                memcpy(&x, d + p, 8);
                if ((x & H) || ((x + 0x6060606060606060ULL) & H) != H || ((x + 0x0101010101010101ULL) & H)) break;
                p += 8;
            }
            while (p < n && comment_ok[d[p]]) p++;
        }
        while (p < n && S(p) != '\n' && S(p) != '\r') {
            Py_UCS4 d = S(p);
            /* (the line breaks below 128 are control characters: tested first) */
            if ((d < ' ' && d != '\t') || d == 0x7f || (d >= 128 && Py_UNICODE_ISLINEBREAK(d))) {
                lx->type = T_BAD;
                return;
            }
            p++;
        }
        lx->type = T_COMMENT;
    } else if (c == '"') {
        p++;
        for (;;) {
            if (p >= n || S(p) == '\n' || S(p) == '\r') { lx->type = T_BAD; return; }
            Py_UCS4 d = S(p);
            if ((d < ' ' || d >= 128) && Py_UNICODE_ISLINEBREAK(d)) { lx->type = T_BAD; return; }   /* splitlines() splits */
            if (d == '\\') {
                if (p + 1 >= n || Py_UNICODE_ISLINEBREAK(S(p + 1))) { lx->type = T_BAD; return; }
                p += 2;
                continue;
            }
            p++;
            if (d == '"') break;
        }
        lx->type = T_STRING;
    } else if (c == '(') { p++; lx->type = T_LPAREN; }
    else if (c == ')') { p++; lx->type = T_RPAREN; }
    else if (c == '/') { p++; lx->type = T_SLASH; }
    else if (c == ':') {
        p++;
        if (kind == PyUnicode_1BYTE_KIND) NAME_RUN1((const Py_UCS1 *)data, p, n, lx->sentinel);
        else while (p < n && NAME_CHAR(S(p))) p++;
        lx->type = T_ROLE;
    } else if (c == '~') {
        /* '~' ([a-z] '.'?)? [0-9]+ (',' [0-9]+)*, each index at most 9 digits */
        p++;
        if (p < n && S(p) >= 'a' && S(p) <= 'z') {
            p++;
            if (p < n && S(p) == '.') p++;
        }
        for (;;) {
            Py_ssize_t d0 = p;
            while (p < n && is_digit(S(p))) p++;
            if (p == d0 || p - d0 > 9) { lx->type = T_BAD; return; }
            if (p + 1 < n && S(p) == ',' && is_digit(S(p + 1))) { p++; continue; }
            break;
        }
        /* the general tokenizer would go on with a symbol glued to the marker: leave it */
        if (p < n && (NAME_CHAR(S(p)) || S(p) == '~')) { lx->type = T_BAD; return; }
        lx->type = T_ALIGN;
    } else if (NAME_CHAR(c)) {
        if (kind == PyUnicode_1BYTE_KIND) NAME_RUN1((const Py_UCS1 *)data, p, n, lx->sentinel);
        else while (p < n && NAME_CHAR(S(p))) p++;
        lx->type = T_SYMBOL;
    } else {
        lx->type = T_BAD;
        return;
    }
    lx->b = p;
    lx->pos = p;
}

static void next_token(lexer *lx) {
    switch (lx->kind) {
    case PyUnicode_1BYTE_KIND: next_token_k(lx, PyUnicode_1BYTE_KIND); break;
    case PyUnicode_2BYTE_KIND: next_token_k(lx, PyUnicode_2BYTE_KIND); break;
    default: next_token_k(lx, PyUnicode_4BYTE_KIND); break;
    }
}

/* ------------------------------------------------------------------ graphs */

typedef struct {
    int32_t node;        /* owner */
    Py_ssize_t ra, rb;   /* role text (without ':') */
    int32_t child;       /* >= 0: the nested node */
    Py_ssize_t va, vb;   /* else: constant token text, alignment removed */
    int quoted;
} branch_t;

typedef struct {
    int32_t n_nodes, n_br;
    Py_ssize_t *var_a, *var_b, *con_a, *con_b;   /* variable, concept token */
    branch_t *br;
    int has_id;
    PyObject *id;   /* the id value (new reference) or NULL */
    const char *id_p;               /* or, in a text of bytes (text_t str NULL): where the value */
    Py_ssize_t id_n;                /* is in the bytes, and its length (no Python object made); */
    int id_kind;                    /* 0: UTF-8 bytes; else the kind of decoded text's characters */
    int32_t *stack;                 /* scratch: the open nodes */
    size_t ncap, bcap, scap;        /* capacities, kept when a graph_t is read again */
} graph_t;

static void graph_free(graph_t *g) {
    free(g->var_a); free(g->var_b); free(g->con_a); free(g->con_b); free(g->br); free(g->stack);
    Py_XDECREF(g->id);
}

/* the text of a block: a str, or (str NULL) ASCII bytes read as one byte per character,
 * or (str NULL, decoded) UTF-8 decoded without the GIL into characters of the kind the str
 * would have (decode_utf8) */
typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n;
    PyObject *str;
    int decoded;
} text_t;

/* 1: the text of str `block`; 0: not a str */
static int text_of(PyObject *block, text_t *t) {
    if (!PyUnicode_Check(block) || PyUnicode_READY(block) < 0) return 0;
    t->kind = PyUnicode_KIND(block);
    t->data = PyUnicode_DATA(block);
    t->n = PyUnicode_GET_LENGTH(block);
    t->str = block;
    t->decoded = 0;
    return 1;
}

/* the `id` metadata of one comment, as penman.py reads it: rpartition("::") from the
 * right, key up to the first space, value rstripped; later ones (to the left) win.
 * Returns 0, or -1 when the general path must decide (an unusual value). */
static int comment_id(const text_t *t, Py_ssize_t a, Py_ssize_t b, graph_t *g) {
    const int kind = t->kind;
    const void *data = t->data;
    Py_ssize_t end = b;
    for (;;) {
        Py_ssize_t p = -1;
#ifdef __GLIBC__
        if (kind == PyUnicode_1BYTE_KIND) {
            /* the last ':' that follows a ':' (memrchr: the comment's bytes once) */
            const unsigned char *d = data;
            Py_ssize_t hi = end;   /* the second ':' in [a + 1, hi) */
            while (hi > a + 1) {
                const unsigned char *c = memrchr(d + a + 1, ':', (size_t)(hi - a - 1));
                if (!c) break;
                if (c[-1] == ':') { p = (c - d) - 1; break; }
                hi = (c - d) - 1;
            }
        } else
#endif
        for (Py_ssize_t k = end - 2; k >= a; k--)
            if (S(k) == ':' && S(k + 1) == ':') { p = k; break; }
        if (p < 0) return 0;
        Py_ssize_t ka = p + 2, kb = ka;
        while (kb < end && S(kb) != ' ') kb++;
        if (kb - ka == 2 && S(ka) == 'i' && S(ka + 1) == 'd') {
            Py_ssize_t va = kb < end ? kb + 1 : end, vb = end;
            while (vb > va && (S(vb - 1) == ' ' || S(vb - 1) == '\t')) vb--;
            if (vb > va && S(vb - 1) >= 127) return -1;   /* might be Unicode whitespace */
            if (!t->str) {
                /* bytes or decoded text (pair_codes_units, code_pairs_units, maybe without
                 * the GIL): the str is made later */
                g->id_p = (const char *)data + va * kind;
                g->id_n = vb - va;
                g->id_kind = t->decoded ? kind : 0;
                g->has_id = 1;
            } else {
                PyObject *v = PyUnicode_Substring(t->str, va, vb);
                if (!v) return -2;
                Py_XDECREF(g->id);
                g->id = v;
                g->has_id = 1;
            }
        }
        end = p;
    }
}

#define GROW(ptr, cap, n, type)                                              \
    if ((n) >= (cap)) {                                                      \
        size_t nc_ = (cap) * 2 + 16;                                         \
        type *np_ = realloc((ptr), nc_ * sizeof(type));                      \
        if (!np_) goto nomem;                                                \
        (ptr) = np_;                                                         \
        (cap) = nc_;                                                         \
    }

/* 1: read; 0: not for the fast path; -1: Python error set.  `g` holds the graph read
 * before (its buffers are reused) or zeros.  (Inlined twice: with the lexer of one-byte
 * text inlined, `kind` PyUnicode_1BYTE_KIND, and with the lexer called, `kind` 0.) */
#define NEXT(lx)                                                                        \
    do {                                                                                \
        if (kind == PyUnicode_1BYTE_KIND) next_token_k(lx, PyUnicode_1BYTE_KIND);       \
        else next_token(lx);                                                            \
    } while (0)

static inline __attribute__((always_inline)) int read_text_k(const text_t *t, graph_t *g, int want_id,
                                                             const int kind) {
    g->n_nodes = g->n_br = 0;
    g->has_id = 0;
    Py_CLEAR(g->id);   /* (NULL when read without the GIL: see coder_pair) */
    g->id_p = NULL;
    g->id_kind = 0;
    lexer lx = {t->kind, t->data, t->n, 0, T_END, 0, 0, 0};
    if (kind == PyUnicode_1BYTE_KIND && t->n > 0)
        lx.sentinel = !(latin1_class[((const Py_UCS1 *)t->data)[t->n - 1]] & C_NAME);
    int32_t *stack = g->stack;
    size_t sn = 0;
    int r = 0;
    NEXT(&lx);
    while (lx.type == T_COMMENT) {
        if (want_id) {
            int c = comment_id(t, lx.a, lx.b, g);
            if (c == -2) { r = -1; goto out; }
            if (c < 0) goto out;
        }
        NEXT(&lx);
    }
    if (lx.type != T_LPAREN) goto out;
    int after_role = 1;   /* a '(' opens the graph or the value of the role just read */
    for (;;) {
        if (lx.type == T_LPAREN) {
            /* '(' var '/' concept [alignment] */
            if (!after_role) goto out;
            after_role = 0;
            Py_ssize_t va = 0, vb = 0;
            int quick = 0;
            if (kind == PyUnicode_1BYTE_KIND) {
                /* the common "(var / concept": the three tokens the lexer would give */
                const Py_UCS1 *d = (const Py_UCS1 *)t->data;
                Py_ssize_t n = t->n, p = lx.pos;
                va = p;
                if (p < n && d[p] != '#')
                    NAME_RUN1(d, p, n, lx.sentinel);
                vb = p;
                if (vb > va && n - p > 3 && d[p] == ' ' && d[p + 1] == '/' && d[p + 2] == ' ' && d[p + 3] != '#'
                    && (latin1_class[d[p + 3]] & C_NAME)) {
                    p += 3;
                    lx.a = p;
                    NAME_RUN1(d, p, n, lx.sentinel);
                    lx.b = lx.pos = p;
                    lx.type = T_SYMBOL;
                    quick = 1;
                }
            }
            if (!quick) {
                NEXT(&lx);
                if (lx.type != T_SYMBOL) goto out;
                va = lx.a;
                vb = lx.b;
                NEXT(&lx);
                if (lx.type != T_SLASH) goto out;
                NEXT(&lx);
                if (lx.type != T_SYMBOL && lx.type != T_STRING) goto out;
            }
            size_t ncap_was = g->ncap;
            GROW(g->var_a, g->ncap, (size_t)g->n_nodes, Py_ssize_t);
            /* the four node arrays share one capacity */
            if (g->ncap != ncap_was) {
                Py_ssize_t *q;
                if (!(q = realloc(g->var_b, g->ncap * sizeof *q))) goto nomem;
                g->var_b = q;
                if (!(q = realloc(g->con_a, g->ncap * sizeof *q))) goto nomem;
                g->con_a = q;
                if (!(q = realloc(g->con_b, g->ncap * sizeof *q))) goto nomem;
                g->con_b = q;
            }
            int32_t me = g->n_nodes++;
            g->var_a[me] = va; g->var_b[me] = vb;
            g->con_a[me] = lx.a; g->con_b[me] = lx.b;
            if (sn > 0) g->br[g->n_br - 1].child = me;   /* the role written last in the parent */
            GROW(stack, g->scap, sn, int32_t);
            g->stack = stack;
            stack[sn++] = me;
            NEXT(&lx);
            if (lx.type == T_ALIGN) NEXT(&lx);
        } else if (lx.type == T_RPAREN) {
            sn--;
            NEXT(&lx);
            if (sn == 0) break;
        } else if (lx.type == T_ROLE) {
            if (lx.b - lx.a < 2) goto out;
            GROW(g->br, g->bcap, (size_t)g->n_br, branch_t);
            branch_t *br = &g->br[g->n_br++];
            br->node = stack[sn - 1];
            br->ra = lx.a + 1; br->rb = lx.b;
            br->child = -1;
            br->quoted = 0;
            int quick = 0;
            if (kind == PyUnicode_1BYTE_KIND) {
                /* the common " (" or " symbol" after a role: the token the lexer would give */
                const Py_UCS1 *d = (const Py_UCS1 *)t->data;
                Py_ssize_t n = t->n, p = lx.pos;
                if (n - p > 1 && d[p] == ' ') {
                    Py_UCS1 c = d[p + 1];
                    if (c == '(') {
                        lx.a = p + 1;
                        lx.b = lx.pos = p + 2;
                        lx.type = T_LPAREN;
                        quick = 1;
                    } else if (c != '#' && (latin1_class[c] & C_NAME)) {
                        lx.a = ++p;
                        NAME_RUN1(d, p, n, lx.sentinel);
                        lx.b = lx.pos = p;
                        lx.type = T_SYMBOL;
                        quick = 1;
                    }
                }
            }
            if (!quick) NEXT(&lx);
            if (lx.type == T_ALIGN) NEXT(&lx);
            if (lx.type == T_SYMBOL || lx.type == T_STRING) {
                br->va = lx.a; br->vb = lx.b;
                br->quoted = lx.type == T_STRING;
                NEXT(&lx);
                if (lx.type == T_ALIGN) NEXT(&lx);
                if (lx.type != T_ROLE && lx.type != T_RPAREN) goto out;
            } else if (lx.type == T_LPAREN) {
                after_role = 1;
            } else {
                goto out;
            }
        } else {
            goto out;
        }
    }
    while (lx.type == T_COMMENT) NEXT(&lx);
    if (lx.type != T_END) goto out;
    r = 1;
out:
    return r;
nomem:
    set_nomem();
    return -1;
}

#undef NEXT

static int read_text(const text_t *t, graph_t *g, int want_id) {
    if (t->kind == PyUnicode_1BYTE_KIND) return read_text_k(t, g, want_id, PyUnicode_1BYTE_KIND);
    return read_text_k(t, g, want_id, 0);
}

/* read_text of a str block into a zeroed `g` */
static int read_graph(PyObject *block, graph_t *g, int want_id) {
    text_t t;
    memset(g, 0, sizeof *g);
    if (!text_of(block, &t)) return 0;
    return read_text(&t, g, want_id);
}

/* ------------------------------------------------------------------ coding */

typedef struct { int64_t *v; size_t n, cap; } vec_t;

/* room for `extra` more values; 0 ok, -1 memory */
static int vreserve(vec_t *v, size_t extra) {
    if (v->n + extra > v->cap) {
        size_t nc = (v->n + extra) * 2 + 64;
        int64_t *p = realloc(v->v, nc * sizeof(int64_t));
        if (!p) return -1;
        v->v = p;
        v->cap = nc;
    }
    return 0;
}

static int vpush(vec_t *v, int64_t x) {
    if (v->n == v->cap) {
        size_t nc = v->cap * 2 + 64;
        int64_t *p = realloc(v->v, nc * sizeof(int64_t));
        if (!p) return -1;
        v->v = p;
        v->cap = nc;
    }
    v->v[v->n++] = x;
    return 0;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_edge(const void *a, const void *b) {
    const int64_t *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x[k] != y[k]) return (x[k] > y[k]) - (x[k] < y[k]);
    return 0;
}

/* (source, target, label, position): by triple, then position */
static int cmp_edge4(const void *a, const void *b) {
    const int64_t *x = a, *y = b;
    for (int k = 0; k < 4; k++)
        if (x[k] != y[k]) return (x[k] > y[k]) - (x[k] < y[k]);
    return 0;
}

static void sort_records(int64_t *r, size_t n, int by_pos);

/* int64 values in ascending order: insertion sort for the few features of a node, qsort
 * beyond (glibc's qsort is a merge sort through a comparison function: it was ~3% of
 * `mrkit smatch` on SICK, most of it on arrays of a handful of values) */
static void sort_i64(int64_t *a, size_t n) {
    if (n > 24) {
        qsort(a, n, sizeof(int64_t), cmp_i64);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        int64_t x = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1] > x) { a[j] = a[j - 1]; j--; }
        a[j] = x;
    }
}

#define FEAT(kind, s1, s2) (((int64_t)(kind) << 60) | ((int64_t)(s1) << 30) | (int64_t)(s2))
#define MAX_ID ((1 << 30) - 1)

/* text_id of a text with characters beyond ASCII: unquoted, lower-cased by str.lower()
 * (full Unicode case mapping, as the general path), interned as UTF-8.  -2: Python error */
static int text_id_unicode(strtab *t, int kind, const void *data, Py_ssize_t a, Py_ssize_t b, int unquote,
                           int lower, int lookup_only) {
    Py_UCS4 *buf = malloc(sizeof(Py_UCS4) * ((size_t)(b - a) + 1));
    if (!buf) return -1;
    Py_ssize_t n = 0;
    for (Py_ssize_t k = a; k < b; k++) {
        Py_UCS4 c = S(k);
        if (unquote && c == '\\') c = S(++k);
        buf[n++] = c;
    }
    /* (the GIL taken for the Python calls when this thread let go of it: decoded text of
     * code_pairs_units) */
    PyGILState_STATE gil = PyGILState_Ensure();
    int id = -2;
    PyObject *str = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, n);
    free(buf);
    if (str && lower) {
        PyObject *low = PyObject_CallMethod(str, "lower", NULL);
        Py_DECREF(str);
        str = low;
    }
    if (str) {
        Py_ssize_t len;
        const char *u = PyUnicode_AsUTF8AndSize(str, &len);
        id = !u ? -2 : lookup_only ? st_find(t, u, (size_t)len) : st_id(t, u, (size_t)len);
        Py_DECREF(str);
    }
    PyGILState_Release(gil);
    return id;
}

/* text_id of any text (the general loop: escapes, wide characters, text ending before a
 * whole word) */
static int text_id_any(strtab *t, int kind, const void *data, Py_ssize_t a, Py_ssize_t b,
                       int unquote, int lower, int lookup_only, char **tmp, size_t *tcap) {
    size_t need = (size_t)(b - a) + 16;
    if (need > *tcap) {
        char *p = realloc(*tmp, need * 2);
        if (!p) return -1;
        *tmp = p;
        *tcap = need * 2;
    }
    char *o = *tmp;
    size_t n = 0;
    if (unquote) { a++; b--; }
    if (kind == PyUnicode_1BYTE_KIND && !unquote) {
        const Py_UCS1 *d = (const Py_UCS1 *)data;
        for (Py_ssize_t k = a; k < b; k++) {
            Py_UCS1 c = d[k];
            if (c >= 128) return text_id_unicode(t, kind, data, a, b, unquote, lower, lookup_only);
            o[n++] = (char)(lower && c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
    } else {
        for (Py_ssize_t k = a; k < b; k++) {
            Py_UCS4 c = S(k);
            if (unquote && c == '\\') c = S(++k);
            if (c >= 128) return text_id_unicode(t, kind, data, a, b, unquote, lower, lookup_only);
            o[n++] = (char)(lower && c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
    }
    uint64_t h = hash_bytes(o, n);
    return lookup_only ? st_find_h(t, o, n, h) : st_id_h(t, o, n, h);
}

/* the id of the text [a, b) of a text of `lim` characters: lower-cased (lower) and
 * unquoted (unquote: a quoted string, backslash escapes), interned, or only looked up
 * (lookup_only; -3: absent); -1 memory, -2 Python error.  Inlined where it is called: the
 * common case (one-byte text, not quoted, ASCII) reads, lower-cases, copies and hashes 8
 * bytes at a time; anything else goes to text_id_any. */
static inline __attribute__((always_inline)) int text_id(strtab *t, int kind, const void *data, Py_ssize_t lim,
                                                         Py_ssize_t a, Py_ssize_t b, int unquote, int lower,
                                                         int lookup_only, char **tmp, size_t *tcap) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    size_t len = (size_t)(b - a), words = (len + 7) & ~(size_t)7;
    if (kind == PyUnicode_1BYTE_KIND && !unquote && (size_t)(lim - a) >= words && words + 8 <= *tcap) {
        /* the text holds whole words from a: the bytes past b masked to zero */
        const Py_UCS1 *d = (const Py_UCS1 *)data + a;
        const uint64_t H = 0x8080808080808080ULL;
        char *o = *tmp;
        uint64_t h = HASH_SEED;
        for (size_t k = 0; k < len; k += 8) {
            uint64_t x;
            memcpy(&x, d + k, 8);
            if (len - k < 8) x &= ~0ULL >> (8 * (8 - (len - k)));
            if (x & H) return text_id_any(t, kind, data, a, b, unquote, lower, lookup_only, tmp, tcap);
            if (lower) x |= ((x + 0x3F3F3F3F3F3F3F3FULL) & ~(x + 0x2525252525252525ULL) & H) >> 2;   /* A-Z */
            memcpy(o + k, &x, 8);
            h = hash_word(h, x);
        }
        return st_id_w(t, o, len, hash_end(h, len), lookup_only);
    }
#endif
    return text_id_any(t, kind, data, a, b, unquote, lower, lookup_only, tmp, tcap);
}

/* the triples of one graph, coded: features per node (ptr, ids) and edges; returns the
 * number of triples, -1 on memory failure, -2 when not for the fast path */
/* the roles of a `keep` tuple as UTF-8 (owned by its strs) and their lengths: read without
 * the GIL */
typedef struct {
    const char **ks;
    Py_ssize_t *kl, nk;
} keep_t;

static void keep_free(keep_t *k) { free(k->ks); free(k->kl); }

/* 0, or -1 with a Python error set (keep_free it either way) */
static int keep_of(PyObject *keep, keep_t *k) {
    Py_ssize_t n = PyTuple_GET_SIZE(keep);
    k->nk = 0;
    k->ks = malloc(sizeof *k->ks * ((size_t)n + 1));
    k->kl = malloc(sizeof *k->kl * ((size_t)n + 1));
    if (!k->ks || !k->kl) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t q = 0; q < n; q++) {
        PyObject *role = PyTuple_GET_ITEM(keep, q);
        if (!PyUnicode_Check(role)) {
            PyErr_SetString(PyExc_TypeError, "keep: a tuple of str");
            return -1;
        }
        if (!(k->ks[q] = PyUnicode_AsUTF8AndSize(role, &k->kl[q]))) return -1;
        k->nk = q + 1;
    }
    return 0;
}

/* the work memory of code_graph, kept from graph to graph of one call (cg_work_free it):
 * a pair's two graphs, a chunk's pairs take the same memory again instead of a dozen
 * malloc and free per graph (issue 14, session 33: ~5% of `mrkit smatch` on SICK, and a
 * lock per call with two threads) */
typedef struct {
    strtab vars;                 /* the variables of the graph */
    int vars_ok;                 /* vars initialised */
    vec_t nf, ne;                /* (node, feature) pairs; edges */
    int32_t *first, *fill;       /* per node */
    size_t firstcap, fillcap;
    int64_t *f;                  /* features sorted by node */
    size_t fcap;
    int64_t *sorted;             /* 4 per edge */
    size_t sortedcap;
    uint8_t *dup;                /* 1 per edge */
    size_t dupcap;
} cg_work_t;

static void cg_work_free(cg_work_t *W) {
    if (W->vars_ok) st_free(&W->vars);
    free(W->nf.v); free(W->ne.v); free(W->first); free(W->fill); free(W->f); free(W->sorted); free(W->dup);
    memset(W, 0, sizeof *W);
}

/* room for `n` of `size` bytes in *p (holding *cap): 0, -1 memory (*p as it was) */
static int cg_room(void **p, size_t *cap, size_t n, size_t size) {
    if (n <= *cap) return 0;
    size_t nc = n * 2 + 16;
    if (nc > SIZE_MAX / size) return -1;
    void *q = malloc(nc * size);
    if (!q) return -1;
    free(*p);
    *p = q;
    *cap = nc;
    return 0;
}

/* (without the GIL when `t` is bytes of ASCII, text_t str NULL: text_id_unicode, the only
 * Python call, is then never reached) */
static Py_ssize_t code_graph(const text_t *t, graph_t *g, strtab *words, const keep_t *keep,
                             vec_t *ptr, vec_t *feats, vec_t *edges, char **tmp, size_t *tcap, cg_work_t *W) {
    const int kind = t->kind;
    const void *data = t->data;
    const Py_ssize_t lim = t->n;
    int n = g->n_nodes;
    Py_ssize_t triples = 0;
    if (W->vars_ok ? st_reset(&W->vars, 64, 256) < 0 : st_init(&W->vars, 64, 256) < 0) {
        st_free(&W->vars);   /* (what st_init took before it failed) */
        W->vars_ok = 0;
        return -1;
    }
    W->vars_ok = 1;
    strtab *vars = &W->vars;
    Py_ssize_t rv = -1;
    if (cg_room((void **)&W->first, &W->firstcap, (size_t)n + 1, sizeof(int32_t)) < 0
        || cg_room((void **)&W->fill, &W->fillcap, (size_t)n + 1, sizeof(int32_t)) < 0)
        return -1;
    int32_t *first = W->first;   /* first feature of node */
    vec_t nf = W->nf, ne = W->ne;   /* (node, feature) pairs; edges (W's memory, given back at the end) */
    nf.n = ne.n = 0;
    /* variables: defined once each */
    for (int i = 0; i < n; i++) {
        int before = vars->n;
        int id = text_id(vars, kind, data, lim, g->var_a[i], g->var_b[i], 0, 0, 0, tmp, tcap);
        if (id < 0) goto done;
        if (vars->n == before) { rv = -2; goto done; }   /* defined twice: an error */
    }
    /* instance triples and the top triple */
    for (int i = 0; i < n; i++) {
        int c = text_id(words, kind, data, lim, g->con_a[i], g->con_b[i], 0, 1, 0, tmp, tcap);
        if (c < 0) goto done;
        if (vpush(&nf, i) < 0 || vpush(&nf, FEAT(1, c, 0)) < 0) goto done;
        triples++;
    }
    if (n > 0) {
        if (vpush(&nf, 0) < 0 || vpush(&nf, FEAT(3, 0, 0)) < 0) goto done;
        triples++;
    }
    for (int k = 0; k < g->n_br; k++) {
        branch_t *br = &g->br[k];
        int role = text_id(words, kind, data, lim, br->ra, br->rb, 0, 1, 0, tmp, tcap);
        if (role < 0) goto done;
        int target = br->child;
        if (target < 0 && !br->quoted) {
            /* a constant that names a variable of the graph is a relation */
            int id = text_id(vars, kind, data, lim, br->va, br->vb, 0, 0, 1, tmp, tcap);
            if (id == -1 || id == -2) goto done;
            if (id >= 0) target = id;
        }
        if (target < 0) {
            int v = text_id(words, kind, data, lim, br->va, br->vb, br->quoted, 1, 0, tmp, tcap);
            if (v < 0) goto done;
            if (vpush(&nf, br->node) < 0 || vpush(&nf, FEAT(2, role, v)) < 0) goto done;
            continue;
        }
        /* relation: an inverted role (ends in -of, has a base, not kept) turns around */
        int src = br->node, tgt = target;
        const char *rs = words->buf + words->off[role];
        size_t rl = (size_t)words->slen[role];
        if (rl > 3 && memcmp(rs + rl - 3, "-of", 3) == 0) {
            int kept = 0;
            for (Py_ssize_t q = 0; q < keep->nk; q++)
                if ((size_t)keep->kl[q] == rl && memcmp(keep->ks[q], rs, rl) == 0) { kept = 1; break; }
            if (!kept) {
                /* rl counts UTF-8 bytes of the lower-cased role: more than the
                 * characters text_id made room for when the role is not ASCII */
                if (rl > *tcap) {
                    char *p = realloc(*tmp, rl * 2);
                    if (!p) goto done;
                    *tmp = p;
                    *tcap = rl * 2;
                    rs = words->buf + words->off[role];
                }
                memcpy(*tmp, rs, rl);   /* rs may move when the table grows */
                int base = st_id(words, *tmp, rl - 3);
                if (base < 0) goto done;
                role = base;
                src = target;
                tgt = br->node;
            }
        }
        if (vpush(&ne, src) < 0 || vpush(&ne, tgt) < 0 || vpush(&ne, role) < 0) goto done;
    }
    if (words->n > MAX_ID) { rv = -2; goto done; }
    /* features: sorted and unique per node (duplicate attributes count once) */
    {
        /* counting sort by node, then sort each node's features */
        size_t m = nf.n / 2;
        for (int i = 0; i <= n; i++) first[i] = 0;
        for (size_t k = 0; k < m; k++) first[nf.v[2 * k] + 1]++;
        for (int i = 0; i < n; i++) first[i + 1] += first[i];
        if (cg_room((void **)&W->f, &W->fcap, m + 1, sizeof(int64_t)) < 0) goto done;
        int64_t *f = W->f;
        int32_t *fill = W->fill;
        for (int i = 0; i < n; i++) fill[i] = first[i];
        for (size_t k = 0; k < m; k++) f[fill[nf.v[2 * k]]++] = nf.v[2 * k + 1];
        size_t base = feats->n;
        if (vpush(ptr, 0) < 0) goto done;
        for (int i = 0; i < n; i++) {
            int64_t *row = f + first[i];
            int len = first[i + 1] - first[i];
            sort_i64(row, (size_t)len);
            for (int q = 0; q < len; q++) {
                if (q > 0 && row[q] == row[q - 1]) continue;
                if (vpush(feats, row[q]) < 0) goto done;
                if ((row[q] >> 60) == 2) triples++;   /* a distinct attribute */
            }
            if (vpush(ptr, (int64_t)(feats->n - base)) < 0) goto done;
        }
    }
    /* relations: distinct (source, target, label), each where it is first written (the
     * order of the general path: the Lagrangian bound depends on it) */
    {
        size_t m = ne.n / 3;
        if (cg_room((void **)&W->sorted, &W->sortedcap, 4 * (m + 1), sizeof(int64_t)) < 0
            || cg_room((void **)&W->dup, &W->dupcap, m + 1, 1) < 0)
            goto done;
        int64_t *sorted = W->sorted;
        uint8_t *dup = W->dup;
        memset(dup, 0, m + 1);
        for (size_t k = 0; k < m; k++) {
            memcpy(sorted + 4 * k, ne.v + 3 * k, 3 * sizeof(int64_t));
            sorted[4 * k + 3] = (int64_t)k;
        }
        sort_records(sorted, m, 0);   /* (cmp_edge4's order) */
        for (size_t k = 1; k < m; k++)
            if (cmp_edge(sorted + 4 * k, sorted + 4 * (k - 1)) == 0) dup[sorted[4 * k + 3]] = 1;
        for (size_t k = 0; k < m; k++) {
            if (dup[k]) continue;
            if (vpush(edges, ne.v[3 * k]) < 0 || vpush(edges, ne.v[3 * k + 1]) < 0
                || vpush(edges, ne.v[3 * k + 2]) < 0) goto done;
            triples++;
        }
    }
    rv = triples;
done:
    W->nf = nf;
    W->ne = ne;
    return rv;
}

/* a pair's codes in code_pair's layout (the header, then pa fa pb fb ea eb), from the
 * vectors code_graph fills (v: ptr, feats, edges of gold, then of system): how many
 * values they take, and the values written at o */
static size_t pair_codes_size(const vec_t v[6]) { return 6 + v[0].n + v[1].n + v[2].n + v[3].n + v[4].n + v[5].n; }

static void pair_codes_write(int64_t *o, int nodes_a, int nodes_b, const vec_t v[6]) {
    o[0] = nodes_a; o[1] = nodes_b; o[2] = (int64_t)v[2].n / 3; o[3] = (int64_t)v[5].n / 3;
    o[4] = (int64_t)v[1].n; o[5] = (int64_t)v[4].n;
    size_t k = 6;
    static const int order[6] = {0, 1, 3, 4, 2, 5};   /* pa fa pb fb ea eb */
    for (int q = 0; q < 6; q++) {
        const vec_t *x = &v[order[q]];
        if (x->n) memcpy(o + k, x->v, x->n * sizeof(int64_t));
        k += x->n;
    }
}

static PyObject *t_code_pair(PyObject *self, PyObject *args) {
    PyObject *gold, *system, *keep;
    if (!PyArg_ParseTuple(args, "UUO!", &gold, &system, &PyTuple_Type, &keep)) return NULL;
    graph_t ga, gb;
    int ra = read_graph(gold, &ga, 1);
    if (ra <= 0) { graph_free(&ga); if (ra < 0) return NULL; Py_RETURN_NONE; }
    int rb = read_graph(system, &gb, 0);
    if (rb <= 0) { graph_free(&ga); graph_free(&gb); if (rb < 0) return NULL; Py_RETURN_NONE; }
    PyObject *result = NULL;
    strtab words;
    cg_work_t W = {0};
    vec_t v[6] = {{0}};   /* ptr, feats, edges of gold, then of system */
    char *tmp = NULL;
    size_t tcap = 0;
    keep_t kp = {0};
    text_t ta, tb;
    text_of(gold, &ta);
    text_of(system, &tb);
    if (st_init(&words, 256, 4096) < 0) { PyErr_NoMemory(); goto out; }
    if (keep_of(keep, &kp) < 0) goto out;
    Py_ssize_t na = code_graph(&ta, &ga, &words, &kp, &v[0], &v[1], &v[2], &tmp, &tcap, &W);
    if (na == -1) { if (!PyErr_Occurred()) PyErr_NoMemory(); goto out; }
    Py_ssize_t nb = na < 0 ? -2 : code_graph(&tb, &gb, &words, &kp, &v[3], &v[4], &v[5], &tmp, &tcap, &W);
    if (nb == -1) { if (!PyErr_Occurred()) PyErr_NoMemory(); goto out; }
    if (na < 0 || nb < 0) { result = Py_None; Py_INCREF(result); goto out; }
    {
        size_t total = pair_codes_size(v);
        PyObject *codes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(total * sizeof(int64_t)));
        if (!codes) goto out;
        pair_codes_write((int64_t *)PyBytes_AS_STRING(codes), ga.n_nodes, gb.n_nodes, v);
        PyObject *id = ga.id ? ga.id : Py_None;
        result = Py_BuildValue("(OnnN)", id, na, nb, codes);
    }
out:
    graph_free(&ga);
    graph_free(&gb);
    st_free(&words);
    cg_work_free(&W);
    keep_free(&kp);
    for (int q = 0; q < 6; q++) free(v[q].v);
    free(tmp);
    return result;
}

/* ------------------------------------------------------------ labelled triples
 *
 *   block_triples(block, keep) -> (id, variables, instances, attributes, relations, tops) | None
 *
 * The Smatch triples of one PENMAN block as Python objects, for the metrics that count
 * labels (SEMA, SemBLEU, WLK, WWLK, SIMPLE, S2match): exactly the fields of
 * features/triples.py's Triples for parse_block + triples(graph, keep), i.e. variables in
 * written order, instances (i, concept) per node, attributes (i, role, value) node by node
 * in written order without duplicates, relations (s, role, t) de-inverted (unless the role
 * is in `keep`) without duplicates where first written, tops [0]. Strings are lower-cased
 * (variables verbatim), each distinct one built once per call. The same reader as
 * code_pair: anything it leaves to the general path gives None here too. */

typedef struct { PyObject **v; int n; } strobjs;

/* the Python str of words id `id` (borrowed from the cache) */
static PyObject *word_obj(strtab *t, strobjs *c, int id) {
    if (id >= c->n) {
        int nn = t->n > id + 1 ? t->n : id + 1;
        PyObject **v = realloc(c->v, sizeof(PyObject *) * (size_t)(nn * 2));
        if (!v) { PyErr_NoMemory(); return NULL; }
        for (int k = c->n; k < nn * 2; k++) v[k] = NULL;
        c->v = v;
        c->n = nn * 2;
    }
    if (!c->v[id]) {
        c->v[id] = PyUnicode_DecodeUTF8(t->buf + t->off[id], t->slen[id], "strict");
        if (!c->v[id]) return NULL;
    }
    return c->v[id];
}

static int cmp_i64x4(const void *a, const void *b) { return cmp_edge4(a, b); }


/* (node, position): records of 4 int64 ordered by fields 0 then 3 */
static int cmp_node_pos(const void *a, const void *b) {
    const int64_t *x = a, *y = b;
    if (x[0] != y[0]) return (x[0] > y[0]) - (x[0] < y[0]);
    return (x[3] > y[3]) - (x[3] < y[3]);
}

/* records of 4 int64 sorted by all four fields (by_pos 0) or by fields 0 then 3 (by_pos
 * 1): insertion sort for the few records of a graph, qsort beyond (the orders are total
 * on the records sorted here: field 3 is a distinct position) */
static void sort_records(int64_t *r, size_t n, int by_pos) {
    if (n > 24) {
        qsort(r, n, 4 * sizeof(int64_t), by_pos ? cmp_node_pos : cmp_i64x4);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        int64_t x[4];
        memcpy(x, r + 4 * i, sizeof x);
        size_t j = i;
        while (j > 0) {
            const int64_t *y = r + 4 * (j - 1);
            int after;
            if (by_pos) after = y[0] != x[0] ? y[0] > x[0] : y[3] > x[3];
            else after = y[0] != x[0] ? y[0] > x[0] : y[1] != x[1] ? y[1] > x[1] : y[2] != x[2] ? y[2] > x[2] : y[3] > x[3];
            if (!after) break;
            memcpy(r + 4 * j, y, sizeof x);
            j--;
        }
        memcpy(r + 4 * j, x, sizeof x);
    }
}

/* attribute records (node, role, value, position) x na: duplicates (same node, role,
 * value) dropped, the rest node by node in written order; returns how many are kept.
 * att + 4 k is compared with the previous record, kept or not: equal triples are
 * adjacent after the sort, so it is the same test as with the last kept one */
static size_t unique_attributes(int64_t *att, size_t na) {
    sort_records(att, na, 0);
    size_t m = 0;
    for (size_t k = 0; k < na; k++) {
        if (k > 0 && memcmp(att + 4 * k, att + 4 * (k - 1), 3 * sizeof(int64_t)) == 0) continue;
        if (m != k) memcpy(att + 4 * m, att + 4 * k, 4 * sizeof(int64_t));
        m++;
    }
    sort_records(att, m, 1);
    return m;
}

static PyObject *t_block_triples(PyObject *self, PyObject *args) {
    PyObject *block, *keep;
    if (!PyArg_ParseTuple(args, "UO!", &block, &PyTuple_Type, &keep)) return NULL;
    graph_t g;
    int r = read_graph(block, &g, 1);
    if (r <= 0) { graph_free(&g); if (r < 0) return NULL; Py_RETURN_NONE; }
    const int kind = PyUnicode_KIND(block);
    const void *data = PyUnicode_DATA(block);
    const Py_ssize_t lim = PyUnicode_GET_LENGTH(block);
    int n = g.n_nodes;
    PyObject *result = NULL, *vars_l = NULL, *inst = NULL, *attrs = NULL, *rels = NULL, *tops = NULL;
    strtab words, vars;
    strobjs cache = {NULL, 0};
    char *tmp = NULL, *rbuf = NULL;
    size_t tcap = 0;
    int64_t *att = NULL, *rel = NULL;   /* (node, role, value|target, position) */
    uint8_t *dup = NULL;
    size_t na = 0, nr = 0;
    int words_ok = st_init(&words, 256, 1024) == 0;
    int vars_ok = st_init(&vars, 64, 256) == 0;
    if (!words_ok || !vars_ok) { PyErr_NoMemory(); goto out; }
    att = malloc(sizeof(int64_t) * 4 * ((size_t)g.n_br + 1));
    rel = malloc(sizeof(int64_t) * 4 * ((size_t)g.n_br + 1));
    dup = calloc((size_t)g.n_br + 1, 1);
    if (!att || !rel || !dup) { PyErr_NoMemory(); goto out; }
    if (!(vars_l = PyList_New(n))) goto out;
    for (int i = 0; i < n; i++) {
        int before = vars.n;
        int id = text_id(&vars, kind, data, lim, g.var_a[i], g.var_b[i], 0, 0, 0, &tmp, &tcap);
        if (id == -1) { PyErr_NoMemory(); goto out; }
        if (id < 0) goto out;
        if (vars.n == before) { result = Py_None; Py_INCREF(result); goto out; }   /* defined twice */
        PyObject *v = PyUnicode_Substring(block, g.var_a[i], g.var_b[i]);
        if (!v) goto out;
        PyList_SET_ITEM(vars_l, i, v);
    }
    if (!(inst = PyList_New(n))) goto out;
    for (int i = 0; i < n; i++) {
        int c = text_id(&words, kind, data, lim, g.con_a[i], g.con_b[i], 0, 1, 0, &tmp, &tcap);
        if (c == -1) { PyErr_NoMemory(); goto out; }
        if (c < 0) goto out;
        PyObject *co = word_obj(&words, &cache, c);
        if (!co) goto out;
        PyObject *t = Py_BuildValue("(iO)", i, co);
        if (!t) goto out;
        PyList_SET_ITEM(inst, i, t);
    }
    for (int k = 0; k < g.n_br; k++) {
        branch_t *br = &g.br[k];
        int role = text_id(&words, kind, data, lim, br->ra, br->rb, 0, 1, 0, &tmp, &tcap);
        if (role == -1) { PyErr_NoMemory(); goto out; }
        if (role < 0) goto out;
        int target = br->child;
        if (target < 0 && !br->quoted) {
            int id = text_id(&vars, kind, data, lim, br->va, br->vb, 0, 0, 1, &tmp, &tcap);
            if (id == -1) { PyErr_NoMemory(); goto out; }
            if (id == -2) goto out;
            if (id >= 0) target = id;
        }
        if (target < 0) {
            int v = text_id(&words, kind, data, lim, br->va, br->vb, br->quoted, 1, 0, &tmp, &tcap);
            if (v == -1) { PyErr_NoMemory(); goto out; }
            if (v < 0) goto out;
            int64_t *a = att + 4 * na++;
            a[0] = br->node; a[1] = role; a[2] = v; a[3] = k;
            continue;
        }
        int src = br->node, tgt = target;
        size_t rl = (size_t)words.slen[role];
        if (rl > 3 && memcmp(words.buf + words.off[role] + rl - 3, "-of", 3) == 0) {
            int kept = 0;
            for (Py_ssize_t q = 0; q < PyTuple_GET_SIZE(keep); q++) {
                Py_ssize_t kl;
                const char *ks = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(keep, q), &kl);
                if (!ks) goto out;
                if ((size_t)kl == rl && memcmp(ks, words.buf + words.off[role], rl) == 0) { kept = 1; break; }
            }
            if (!kept) {
                char *nb = realloc(rbuf, rl);
                if (!nb) { PyErr_NoMemory(); goto out; }
                rbuf = nb;
                memcpy(rbuf, words.buf + words.off[role], rl);   /* the table may move */
                int base = st_id(&words, rbuf, rl - 3);
                if (base < 0) { PyErr_NoMemory(); goto out; }
                role = base;
                src = target;
                tgt = br->node;
            }
        }
        int64_t *e = rel + 4 * nr++;
        e[0] = src; e[1] = role; e[2] = tgt; e[3] = k;
    }
    /* attributes: duplicates (same node, role, value) dropped, then node by node in
     * written order */
    {
        size_t m = unique_attributes(att, na);
        if (!(attrs = PyList_New((Py_ssize_t)m))) goto out;
        for (size_t k = 0; k < m; k++) {
            PyObject *ro = word_obj(&words, &cache, (int)att[4 * k + 1]);
            if (!ro) goto out;
            PyObject *vo = word_obj(&words, &cache, (int)att[4 * k + 2]);
            if (!vo) goto out;
            PyObject *t = Py_BuildValue("(iOO)", (int)att[4 * k], ro, vo);
            if (!t) goto out;
            PyList_SET_ITEM(attrs, (Py_ssize_t)k, t);
        }
    }
    /* relations: distinct (source, role, target), each where it is first written */
    {
        int64_t *sorted = malloc(sizeof(int64_t) * 4 * (nr + 1));
        if (!sorted) { PyErr_NoMemory(); goto out; }
        memcpy(sorted, rel, sizeof(int64_t) * 4 * nr);
        for (size_t k = 0; k < nr; k++) sorted[4 * k + 3] = (int64_t)k;
        qsort(sorted, nr, 4 * sizeof(int64_t), cmp_i64x4);
        for (size_t k = 1; k < nr; k++)
            if (memcmp(sorted + 4 * k, sorted + 4 * (k - 1), 3 * sizeof(int64_t)) == 0) dup[sorted[4 * k + 3]] = 1;
        free(sorted);
        if (!(rels = PyList_New(0))) goto out;
        for (size_t k = 0; k < nr; k++) {
            if (dup[k]) continue;
            PyObject *ro = word_obj(&words, &cache, (int)rel[4 * k + 1]);
            if (!ro) goto out;
            PyObject *t = Py_BuildValue("(iOi)", (int)rel[4 * k], ro, (int)rel[4 * k + 2]);
            if (!t) goto out;
            int bad = PyList_Append(rels, t);
            Py_DECREF(t);
            if (bad) goto out;
        }
    }
    if (!(tops = n > 0 ? Py_BuildValue("[i]", 0) : PyList_New(0))) goto out;
    result = Py_BuildValue("(OOOOOO)", g.id ? g.id : Py_None, vars_l, inst, attrs, rels, tops);
out:
    if (!result && !PyErr_Occurred()) { result = Py_None; Py_INCREF(result); }
    Py_XDECREF(vars_l); Py_XDECREF(inst); Py_XDECREF(attrs); Py_XDECREF(rels); Py_XDECREF(tops);
    for (int k = 0; k < cache.n; k++) Py_XDECREF(cache.v[k]);
    free(cache.v);
    graph_free(&g);
    if (words_ok) st_free(&words);
    if (vars_ok) st_free(&vars);
    free(tmp); free(rbuf); free(att); free(rel); free(dup);
    return result;
}

/* ------------------------------------------------------------ coded corpus
 *
 *   pair_codes(gold_blocks, system_blocks, keep) -> (ids, codes, refused)
 *
 * The Smatch triples of many pairs of PENMAN blocks (two lists of equal length, block k
 * of each list is pair k) as one buffer of int64 (a read-only memoryview: codes_view), for
 * the compiled counting of the label
 * metrics (SEMA, SemBLEU, WLK, SIMPLE: mrkit.pipeline.amr_metrics) with no Python object
 * per graph or triple.  Per pair, the gold graph then the system graph, each
 *
 *   n, n_inst, n_attr, n_rel, n_tops, (i, concept)*, (i, role, value)*, (s, role, t)*, top*
 *
 * in exactly the order of block_triples (and so of features/triples.py's Triples).  All
 * strings of the call are numbered by one table: equal numbers exactly for equal strings.
 * String 0 is "" (the label of a node without concept); roles are numbered as ":" + role
 * (so a role's number equals a label's exactly when SIMPLE's label ":role" equals it).
 * A pair one of whose blocks the reader leaves to the general path (see block_triples)
 * has n = -1 in both headers (all counts 0) and its index in `refused`.  `ids`: the gold
 * block's `# ::id` value per pair (None without one, or when refused). */

/* the scratch space of graph_codes, kept from graph to graph of one pair_codes call */
typedef struct {
    strtab vars;                 /* every variable name of the call (verbatim) */
    int32_t *vnode;              /* per name: its node in the graph of stamp vstamp */
    uint32_t *vstamp, gen;       /* gen: the number of the graph being coded */
    size_t vcap;                 /* names vnode and vstamp hold */
    int64_t *att, *rel, *sorted;
    uint8_t *dup;
    size_t cap;                  /* records of 4 int64 that att, rel and sorted hold */
    int32_t *rmap;               /* per role number: the codes of its roles (colon_role), -1 unknown */
    size_t rcap;                 /* roles rmap holds */
    const char **ks;             /* the roles of `keep` as UTF-8 (owned by its strs), their */
    Py_ssize_t *kl, nk;          /* lengths and number: read without the GIL */
} scratch_t;

static void scratch_free(scratch_t *w) {
    st_free(&w->vars);
    free(w->vnode); free(w->vstamp);
    free(w->att); free(w->rel); free(w->sorted); free(w->dup); free(w->rmap);
    free(w->ks); free(w->kl);
}

/* the number of ":" + role (role: a number of `words`) as an attribute's role (rel 0),
 * or as a relation's (rel 1): de-inverted unless in `keep` (w->ks: *inv set then),
 * remembered per role; -1 memory (no Python call: it runs without the GIL too) */
static int colon_role_slow(strtab *words, scratch_t *w, int role, int rel, int *inv) {
    if ((size_t)role >= w->rcap) {
        size_t nc = ((size_t)role + 1) * 2 + 64;
        int32_t *m = realloc(w->rmap, sizeof(int32_t) * 2 * nc);
        if (!m) return -1;
        for (size_t q = 2 * w->rcap; q < 2 * nc; q++) m[q] = -1;
        w->rmap = m;
        w->rcap = nc;
    }
    int32_t got = w->rmap[2 * (size_t)role + rel];
    if (got < 0) {
        size_t rl = (size_t)words->slen[role];
        size_t keep_len = rl;   /* the role's length after de-inversion */
        int turned = 0;
        if (rel && rl > 3 && memcmp(words->buf + words->off[role] + rl - 3, "-of", 3) == 0) {
            int kept = 0;
            for (Py_ssize_t q = 0; q < w->nk; q++)
                if ((size_t)w->kl[q] == rl && memcmp(w->ks[q], words->buf + words->off[role], rl) == 0) {
                    kept = 1;
                    break;
                }
            if (!kept) { keep_len = rl - 3; turned = 1; }
        }
        /* ":" + role (the table may move: copy first) */
        char small[256], *nb = keep_len < sizeof small ? small : malloc(keep_len + 1);
        if (!nb) return -1;
        nb[0] = ':';
        memcpy(nb + 1, words->buf + words->off[role], keep_len);
        int crole = st_id(words, nb, keep_len + 1);
        if (nb != small) free(nb);
        if (crole < 0) return -1;
        got = w->rmap[2 * (size_t)role + rel] = (int32_t)(2 * crole + turned);
    }
    *inv = got & 1;
    return got >> 1;
}

/* colon_role, its common case (a role seen before) inlined */
static inline int colon_role(strtab *words, scratch_t *w, int role, int rel, int *inv) {
    int32_t got;
    if ((size_t)role < w->rcap && (got = w->rmap[2 * (size_t)role + rel]) >= 0) {
        *inv = got & 1;
        return got >> 1;
    }
    return colon_role_slow(words, w, role, rel, inv);
}

static int graph_codes(const text_t *t, graph_t *g, strtab *words, vec_t *out,
                       char **tmp, size_t *tcap, scratch_t *w) {
    /* 1 written; 0 refused (nothing written); -1 Python error */
    const int kind = t->kind;
    const void *data = t->data;
    const Py_ssize_t lim = t->n;
    int n = g->n_nodes;
    strtab *vs = &w->vars;
    size_t na = 0, nr = 0, start = out->n;
    int rv = -1;
    /* a new graph: no name is a variable of it yet */
    if (++w->gen == 0) {
        memset(w->vstamp, 0, sizeof(uint32_t) * w->vcap);
        w->gen = 1;
    }
    if ((size_t)g->n_br + 1 > w->cap) {
        size_t c = ((size_t)g->n_br + 1) * 2;
        free(w->att); free(w->rel); free(w->sorted); free(w->dup);
        w->att = malloc(sizeof(int64_t) * 4 * c);
        w->rel = malloc(sizeof(int64_t) * 4 * c);
        w->sorted = malloc(sizeof(int64_t) * 4 * c);
        w->dup = malloc(c);
        w->cap = (w->att && w->rel && w->sorted && w->dup) ? c : 0;
        if (!w->cap) { set_nomem(); return -1; }
    }
    int64_t *att = w->att, *rel = w->rel, *sorted = w->sorted;
    uint8_t *dup = w->dup;
    memset(dup, 0, (size_t)g->n_br + 1);
    for (int i = 0; i < n; i++) {
        int id = text_id(vs, kind, data, lim, g->var_a[i], g->var_b[i], 0, 0, 0, tmp, tcap);
        if (id == -1) { set_nomem(); goto done; }
        if (id < 0) goto done;
        if ((size_t)id >= w->vcap) {
            size_t nc = ((size_t)id + 1) * 2 + 64;
            int32_t *vn = realloc(w->vnode, sizeof(int32_t) * nc);
            if (!vn) { set_nomem(); goto done; }
            w->vnode = vn;
            uint32_t *vt = realloc(w->vstamp, sizeof(uint32_t) * nc);
            if (!vt) { set_nomem(); goto done; }
            memset(vt + w->vcap, 0, sizeof(uint32_t) * (nc - w->vcap));
            w->vstamp = vt;
            w->vcap = nc;
        }
        if (w->vstamp[id] == w->gen) { rv = 0; goto done; }   /* defined twice */
        w->vstamp[id] = w->gen;
        w->vnode[id] = i;
    }
    /* room for all the values of the graph (at most: header, instances, a triple per
     * branch, the top), then the header, filled below */
    if (vreserve(out, 6 + 2 * (size_t)n + 3 * (size_t)g->n_br) < 0) { set_nomem(); goto done; }
    int64_t *ov = out->v;
    for (int q = 0; q < 5; q++) ov[out->n++] = 0;
    for (int i = 0; i < n; i++) {
        int c = text_id(words, kind, data, lim, g->con_a[i], g->con_b[i], 0, 1, 0, tmp, tcap);
        if (c == -1) { set_nomem(); goto done; }
        if (c < 0) goto done;
        ov[out->n++] = i;
        ov[out->n++] = c;
    }
    for (int k = 0; k < g->n_br; k++) {
        branch_t *br = &g->br[k];
        int role = text_id(words, kind, data, lim, br->ra, br->rb, 0, 1, 0, tmp, tcap);
        if (role == -1) { set_nomem(); goto done; }
        if (role < 0) goto done;
        int target = br->child;
        if (target < 0 && !br->quoted) {
            int id = text_id(vs, kind, data, lim, br->va, br->vb, 0, 0, 1, tmp, tcap);
            if (id == -1) { set_nomem(); goto done; }
            if (id == -2) goto done;
            if (id >= 0 && (size_t)id < w->vcap && w->vstamp[id] == w->gen) target = w->vnode[id];
        }
        int src = br->node, tgt = target, inv = 0;
        int crole = colon_role(words, w, role, target >= 0, &inv);
        if (crole < 0) { set_nomem(); goto done; }
        if (inv) { src = target; tgt = br->node; }
        if (target < 0) {
            int v = text_id(words, kind, data, lim, br->va, br->vb, br->quoted, 1, 0, tmp, tcap);
            if (v == -1) { set_nomem(); goto done; }
            if (v < 0) goto done;
            int64_t *a = att + 4 * na++;
            a[0] = br->node; a[1] = crole; a[2] = v; a[3] = k;
            continue;
        }
        int64_t *e = rel + 4 * nr++;
        e[0] = src; e[1] = crole; e[2] = tgt; e[3] = k;
    }
    /* attributes: duplicates dropped, then node by node in written order */
    size_t m = unique_attributes(att, na);
    for (size_t k = 0; k < m; k++)
        for (int q = 0; q < 3; q++) ov[out->n++] = att[4 * k + q];
    /* relations: distinct (source, role, target), each where it is first written */
    memcpy(sorted, rel, sizeof(int64_t) * 4 * nr);
    for (size_t k = 0; k < nr; k++) sorted[4 * k + 3] = (int64_t)k;
    sort_records(sorted, nr, 0);
    for (size_t k = 1; k < nr; k++)
        if (memcmp(sorted + 4 * k, sorted + 4 * (k - 1), 3 * sizeof(int64_t)) == 0) dup[sorted[4 * k + 3]] = 1;
    size_t nrel = 0;
    for (size_t k = 0; k < nr; k++) {
        if (dup[k]) continue;
        for (int q = 0; q < 3; q++) ov[out->n++] = rel[4 * k + q];
        nrel++;
    }
    if (n > 0) ov[out->n++] = 0;
    out->v[start] = n;
    out->v[start + 1] = n;
    out->v[start + 2] = (int64_t)m;
    out->v[start + 3] = (int64_t)nrel;
    out->v[start + 4] = n > 0 ? 1 : 0;
    rv = 1;
done:
    if (rv != 1) out->n = start;
    return rv;
}

/* UTF-8 bytes p[0:n] (not all ASCII) decoded as PyUnicode_DecodeUTF8(p, n, "strict") would
 * decode them, without the GIL: the characters in a new buffer (*owned, the caller frees
 * it) of the kind the str would have (1: Latin-1, 2, 4 bytes a character), as decoded text
 * in t.  1 done; 0 not well-formed UTF-8 (Unicode's table 3-7, what the strict decoder
 * accepts: no overlong forms, no surrogates, nothing past U+10FFFF, no cut sequence); -1
 * memory. */
static int decode_utf8(const unsigned char *p, Py_ssize_t n, text_t *t, void **owned) {
    Py_ssize_t chars = 0;
    Py_UCS4 top = 0;
    for (Py_ssize_t i = 0; i < n; chars++) {
        unsigned c = p[i];
        Py_UCS4 cp;
        int len;
        unsigned lo = 0x80, hi = 0xBF;   /* the second byte's range */
        if (c < 0x80) {   /* a run of ASCII, 8 bytes at a time */
            i++;
            while (n - i >= 8) {
                uint64_t x;
                memcpy(&x, p + i, 8);
                if (x & 0x8080808080808080ULL) break;
                i += 8;
                chars += 8;
            }
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) {
            len = 3; cp = c & 0x0F;
            if (c == 0xE0) lo = 0xA0;
            else if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4; cp = c & 0x07;
            if (c == 0xF0) lo = 0x90;
            else if (c == 0xF4) hi = 0x8F;
        } else return 0;
        if (n - i < len || p[i + 1] < lo || p[i + 1] > hi) return 0;
        for (int q = 1; q < len; q++) {
            if ((p[i + q] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (p[i + q] & 0x3F);
        }
        if (cp > top) top = cp;
        i += len;
    }
    int kind = top < 0x100 ? PyUnicode_1BYTE_KIND : top < 0x10000 ? PyUnicode_2BYTE_KIND : PyUnicode_4BYTE_KIND;
    void *buf = malloc((size_t)(chars ? chars : 1) * (size_t)kind);
    if (!buf) return -1;
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n; k++) {
        unsigned c = p[i];
        Py_UCS4 cp;
        if (c < 0x80 && kind == PyUnicode_1BYTE_KIND) {   /* (Latin-1: ASCII runs copied) */
            Py_ssize_t j = i + 1;
            while (j < n && p[j] < 0x80) j++;
            memcpy((Py_UCS1 *)buf + k, p + i, (size_t)(j - i));
            k += j - i - 1;
            i = j;
            continue;
        }
        if (c < 0x80 && kind == PyUnicode_2BYTE_KIND) {
            Py_UCS2 *o = (Py_UCS2 *)buf + k;
            Py_ssize_t j = i;
            while (j < n && p[j] < 0x80) *o++ = p[j++];
            k += j - i - 1;
            i = j;
            continue;
        }
        int len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
        for (int q = 1; q < len; q++) cp = (cp << 6) | (p[i + q] & 0x3F);
        i += len;
        PyUnicode_WRITE(kind, buf, k, cp);
    }
    t->kind = kind;
    t->data = buf;
    t->n = chars;
    t->str = NULL;
    t->decoded = 1;
    *owned = buf;
    return 1;
}

/* decode_utf8 of p[0:n] with the buffer kept in *kept (*nk of them, room for *cap) until
 * the call ends (ids may point into it): 1 decoded, 0 not well-formed, -1 memory. */
static int decode_kept(const unsigned char *p, Py_ssize_t n, text_t *t, void ***kept, size_t *nk, size_t *cap) {
    if (*nk == *cap) {
        void **nd = realloc(*kept, sizeof **kept * (*cap * 2 + 16));
        if (!nd) return -1;
        *kept = nd;
        *cap = *cap * 2 + 16;
    }
    int d = decode_utf8(p, n, t, &(*kept)[*nk]);
    if (d > 0) (*nk)++;
    return d;
}

/* the state of one pair_codes call */
typedef struct {
    strtab words;
    vec_t out;
    char *tmp;
    size_t tcap;
    scratch_t w;
    graph_t g;
    PyObject *ids;         /* per pair: the gold block's id (a str) or None */
    const char **id_p;     /* per pair: an id still in the bytes (NULL: none), its length */
    Py_ssize_t *id_n;      /* (made a str by coder_result, with the GIL) */
    unsigned char *id_k;   /* and its characters' kind (0: UTF-8 bytes; else decoded text's) */
    vec_t refused;         /* the refused pairs' numbers */
    void **decoded;        /* texts decoded without the GIL (decode_kept): ids may point into them */
    size_t ndecoded, dcap;
} coder_t;

static void coder_free(coder_t *c) {
    Py_XDECREF(c->ids);
    st_free(&c->words);
    scratch_free(&c->w);
    graph_free(&c->g);
    free(c->out.v); free(c->tmp); free(c->id_p); free(c->id_n); free(c->id_k); free(c->refused.v);
    for (size_t q = 0; q < c->ndecoded; q++) free(c->decoded[q]);
    free(c->decoded);
}

/* 0 ready (ids: a list of np Nones to fill); -1 Python error (coder_free it).  With the
 * GIL; coder_pair of a text of bytes (text_t str NULL) then runs without it. */
static int coder_init(coder_t *c, PyObject *keep, Py_ssize_t np) {
    memset(c, 0, sizeof *c);
    if (st_init(&c->words, 1024, 16384) < 0 || st_init(&c->w.vars, 64, 256) < 0 || st_id(&c->words, "", 0) != 0
        || !(c->id_p = calloc((size_t)np + 1, sizeof *c->id_p)) || !(c->id_n = calloc((size_t)np + 1, sizeof *c->id_n))
        || !(c->id_k = calloc((size_t)np + 1, 1))
        || !(c->w.ks = malloc(sizeof *c->w.ks * ((size_t)PyTuple_GET_SIZE(keep) + 1)))
        || !(c->w.kl = malloc(sizeof *c->w.kl * ((size_t)PyTuple_GET_SIZE(keep) + 1)))) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t q = 0; q < PyTuple_GET_SIZE(keep); q++) {
        PyObject *role = PyTuple_GET_ITEM(keep, q);
        if (!PyUnicode_Check(role)) {
            PyErr_SetString(PyExc_TypeError, "keep: a tuple of str");
            return -1;
        }
        if (!(c->w.ks[q] = PyUnicode_AsUTF8AndSize(role, &c->w.kl[q]))) return -1;
        c->w.nk = q + 1;
    }
    if (!(c->ids = PyList_New(np))) return -1;
    for (Py_ssize_t k = 0; k < np; k++) { Py_INCREF(Py_None); PyList_SET_ITEM(c->ids, k, Py_None); }
    return 0;
}

/* codes pair k of texts tx[0] (gold) and tx[1] (system; NULL: a block that is not a
 * str); 0 done, -1 Python error.  Without the GIL when both texts are bytes of ASCII
 * (text_t str NULL; then no Python object is made or let go: memory errors take the GIL
 * to say so), with it otherwise. */
static int coder_pair(coder_t *c, text_t *tx[2], Py_ssize_t k) {
    size_t start = c->out.n;
    int ok = 1;
    PyObject *id = NULL;
    const char *id_p = NULL;
    Py_ssize_t id_n = 0;
    int id_kind = 0;
    for (int side = 0; side < 2 && ok; side++) {
        int r = tx[side] ? read_text(tx[side], &c->g, side == 0) : 0;
        if (r > 0) r = graph_codes(tx[side], &c->g, &c->words, &c->out, &c->tmp, &c->tcap, &c->w);
        if (r < 0) { Py_XDECREF(id); Py_CLEAR(c->g.id); return -1; }
        if (r == 0) ok = 0;
        else if (side == 0 && c->g.id) { id = c->g.id; c->g.id = NULL; }
        else if (side == 0 && c->g.id_p) { id_p = c->g.id_p; id_n = c->g.id_n; id_kind = c->g.id_kind; }
    }
    Py_CLEAR(c->g.id);   /* (a refused gold block's: set only when read with the GIL) */
    if (!ok) {
        Py_CLEAR(id);
        c->out.n = start;
        for (int q = 0; q < 10; q++)
            if (vpush(&c->out, q % 5 == 0 ? -1 : 0) < 0) { set_nomem(); return -1; }
        if (vpush(&c->refused, k) < 0) { set_nomem(); return -1; }
        return 0;
    }
    if (id) {
        PyObject *was = PyList_GET_ITEM(c->ids, k);
        PyList_SET_ITEM(c->ids, k, id);
        Py_DECREF(was);
    } else if (id_p) {
        c->id_p[k] = id_p;
        c->id_n[k] = id_n;
        c->id_k[k] = (unsigned char)id_kind;
    }
    return 0;
}

/* ------------------------------------------------------------ the codes, not copied
 *
 * The codes of a call are handed out as a read-only memoryview of the very buffer they were
 * written to (an object of this type owns it): no copy into a bytes object, whose pages
 * (as many as the codes': 2.4 MB on SICK) cost a page fault each on first touch -- ~600
 * faults, a fifth of the coding (issue 14). The kernels read any buffer. */

typedef struct {
    PyObject_HEAD
    int64_t *v;
    Py_ssize_t n;   /* values */
} codes_obj;

static void codes_dealloc(PyObject *self) {
    free(((codes_obj *)self)->v);
    Py_TYPE(self)->tp_free(self);
}

static int codes_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    static char empty[8];
    codes_obj *o = (codes_obj *)self;
    return PyBuffer_FillInfo(view, self, o->v ? (void *)o->v : (void *)empty, o->n * (Py_ssize_t)sizeof(int64_t), 1,
                             flags);
}

static PyBufferProcs codes_as_buffer = {codes_getbuffer, NULL};

static PyTypeObject codes_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mrkit.features._triples.Codes",
    .tp_basicsize = sizeof(codes_obj),
    .tp_dealloc = codes_dealloc,
    .tp_as_buffer = &codes_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The int64 codes of a pair_codes call (read through a memoryview).",
};

/* a read-only memoryview of the values of v (n values; owned from now on, freed with the
 * view: the caller forgets it), or NULL (a Python error; v freed) */
static PyObject *codes_view(int64_t *v, size_t n) {
    if (v && n) {   /* the capacity left over: given back (a realloc that shrinks: no copy) */
        int64_t *w = realloc(v, n * sizeof(int64_t));
        if (w) v = w;
    }
    codes_obj *o = PyObject_New(codes_obj, &codes_type);
    if (!o) {
        free(v);
        return NULL;
    }
    o->v = v;
    o->n = (Py_ssize_t)n;
    PyObject *view = PyMemoryView_FromObject((PyObject *)o);
    Py_DECREF(o);
    return view;
}

/* (ids, codes, refused) of a finished call (with the GIL; np pairs) */
static PyObject *coder_result(coder_t *c, Py_ssize_t np) {
    for (Py_ssize_t k = 0; k < np; k++)
        if (c->id_p[k]) {
            PyObject *v = c->id_k[k] ? PyUnicode_FromKindAndData(c->id_k[k], c->id_p[k], c->id_n[k])
                                     : PyUnicode_FromStringAndSize(c->id_p[k], c->id_n[k]);
            if (!v) return NULL;
            PyObject *was = PyList_GET_ITEM(c->ids, k);
            PyList_SET_ITEM(c->ids, k, v);
            Py_DECREF(was);
        }
    PyObject *refused = PyList_New((Py_ssize_t)c->refused.n);
    if (!refused) return NULL;
    for (size_t q = 0; q < c->refused.n; q++) {
        PyObject *kk = PyLong_FromLongLong(c->refused.v[q]);
        if (!kk) { Py_DECREF(refused); return NULL; }
        PyList_SET_ITEM(refused, (Py_ssize_t)q, kk);
    }
    PyObject *codes = codes_view(c->out.v, c->out.n);
    c->out.v = NULL;   /* the view's now */
    c->out.n = c->out.cap = 0;
    if (!codes) { Py_DECREF(refused); return NULL; }
    return Py_BuildValue("(ONN)", c->ids, codes, refused);
}

static PyObject *t_pair_codes(PyObject *self, PyObject *args) {
    PyObject *golds, *systems, *keep;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyList_Type, &golds, &PyList_Type, &systems, &PyTuple_Type, &keep))
        return NULL;
    Py_ssize_t np = PyList_GET_SIZE(golds);
    if (PyList_GET_SIZE(systems) != np) {
        PyErr_SetString(PyExc_ValueError, "pair_codes: lists of different lengths");
        return NULL;
    }
    coder_t c;
    PyObject *result = NULL;
    if (coder_init(&c, keep, np) < 0) goto out;
    for (Py_ssize_t k = 0; k < np; k++) {
        text_t t[2], *tx[2];
        for (int side = 0; side < 2; side++)
            tx[side] = text_of(PyList_GET_ITEM(side ? systems : golds, k), &t[side]) ? &t[side] : NULL;
        if (coder_pair(&c, tx, k) < 0) goto out;
    }
    result = coder_result(&c, np);
out:
    coder_free(&c);
    return result;
}

/* ------------------------------------------------------------ coded corpus from bytes
 *
 *   pair_codes_units(gold_buf, gold_base, gold_units, system_buf, system_base, system_units, keep)
 *       -> (ids, codes, refused)
 *
 * pair_codes of the blocks of two files given as byte ranges, with no Python object per
 * block: `*_buf` is a piece of the file (bytes-like, UTF-8) starting at file offset
 * `*_base`; `*_units` bytes of int64 triples (start, end, first line) in file offsets, as
 * mrkit.codecs._cut.scan gives them (its units are the blocks of iter_block_lists with
 * content_only), one per pair, both of the same length.  A block of ASCII bytes is read in
 * place, one byte per character; any other is decoded from UTF-8 in C, as the strict
 * decoder decodes it (decode_utf8, no GIL), or, when not well-formed, to a str with the GIL.
 * The result is exactly pair_codes(decoded gold blocks, decoded system blocks, keep)
 * (tests/features/test_pair_codes.py). */

/* the text of unit u (start, end) of buf (file offset base): 1 set (*str a new
 * reference when decoded), 0 not UTF-8 (error cleared: the pair is refused), -1 error */
/* whether n bytes are all ASCII (a loop the compiler vectorises) */
static int all_ascii(const unsigned char *p, Py_ssize_t n) {
    unsigned char any = 0;
    for (Py_ssize_t k = 0; k < n; k++) any |= p[k];
    return !(any & 0x80);
}

/* the unit u (start, end) of buf (file offset base) as text when all ASCII (ascii: the
 * whole buffer is known to be): 1 plain (t set, one byte per character, no Python object),
 * 0 other bytes, -1 outside the buffer.  No GIL needed. */
static int unit_ascii(const Py_buffer *buf, int64_t base, const int64_t *u, int ascii, text_t *t) {
    int64_t a = u[0] - base, b = u[1] - base;
    if (a < 0 || b < a || b > buf->len) return -1;
    const unsigned char *p = (const unsigned char *)buf->buf + a;
    if (!ascii && !all_ascii(p, (Py_ssize_t)(b - a))) return 0;
    t->kind = PyUnicode_1BYTE_KIND;
    t->data = p;
    t->n = (Py_ssize_t)(b - a);
    t->str = NULL;
    t->decoded = 0;
    return 1;
}

static int unit_text(const Py_buffer *buf, int64_t base, const int64_t *u, text_t *t, PyObject **str, int ascii) {
    *str = NULL;
    int r = unit_ascii(buf, base, u, ascii, t);
    if (r < 0) PyErr_SetString(PyExc_ValueError, "pair_codes_units: a unit outside its buffer");
    if (r != 0) return r;
    const char *p = (const char *)buf->buf + (u[0] - base);
    *str = PyUnicode_DecodeUTF8(p, (Py_ssize_t)(u[1] - u[0]), "strict");
    if (!*str) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return -1;
        PyErr_Clear();
        return 0;
    }
    return text_of(*str, t) ? 1 : -1;
}

/* whether the bytes of buf (file offset base) that the np units of `units` span, from the
 * least start to the greatest end, are all ASCII: the units' text only, not the whole
 * buffer (the read-ahead of `score` codes parts of 256 pairs of a window of the whole file:
 * testing the window each time was ~2 ms of SICK, session 34); 0 (each unit then tested on
 * its own) when a unit lies outside the buffer */
static int units_ascii(const Py_buffer *buf, int64_t base, const Py_buffer *units, Py_ssize_t np) {
    if (np <= 0) return 1;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (Py_ssize_t k = 0; k < np; k++) {
        int64_t u[3];
        memcpy(u, (const char *)units->buf + 24 * k, sizeof u);
        if (u[0] < lo) lo = u[0];
        if (u[1] > hi) hi = u[1];
    }
    int64_t a = lo - base, b = hi - base;
    if (a < 0 || b < a || b > buf->len) return 0;
    return all_ascii((const unsigned char *)buf->buf + a, (Py_ssize_t)(b - a));
}

/* unit k of `units` (int64 triples, file offsets) into u, then unit_ascii of it */
static int unit_plain(const Py_buffer *buf, int64_t base, const Py_buffer *units, Py_ssize_t k, int ascii,
                      int64_t u[3], text_t *t) {
    memcpy(u, (const char *)units->buf + 24 * k, 3 * sizeof(int64_t));
    return unit_ascii(buf, base, u, ascii, t);
}

static PyObject *t_pair_codes_units(PyObject *self, PyObject *args) {
    Py_buffer bufs[2], units[2];
    long long base[2];
    PyObject *keep;
    if (!PyArg_ParseTuple(args, "y*Ly*y*Ly*O!", &bufs[0], &base[0], &units[0], &bufs[1], &base[1], &units[1],
                          &PyTuple_Type, &keep))
        return NULL;
    PyObject *result = NULL;
    coder_t c;
    int ready = 0;
    Py_ssize_t np = units[0].len / 24;
    if (units[0].len % 24 || units[1].len != units[0].len) {
        PyErr_SetString(PyExc_ValueError, "pair_codes_units: units of different lengths (or not int64 triples)");
        goto out;
    }
    ready = 1;
    if (coder_init(&c, keep, np) < 0) goto out;
    /* Without the GIL (another thread may code other pairs meanwhile: the buffers are
     * held, a pair of ASCII blocks needs no Python object, and other UTF-8 is decoded in
     * C); a pair with a block that is not well-formed UTF-8 takes it back. */
    PyThreadState *ts = PyEval_SaveThread();
    int ascii[2], bad = 0;
    for (int side = 0; side < 2; side++) ascii[side] = units_ascii(&bufs[side], base[side], &units[side], np);
    for (Py_ssize_t k = 0; k < np && !bad; k++) {
        text_t t[2], *tx[2];
        int64_t u[2][3];
        int plain = 1;
        for (int side = 0; side < 2; side++) {
            int r = unit_plain(&bufs[side], base[side], &units[side], k, ascii[side], u[side], &t[side]);
            if (r < 0) { bad = 2; break; }
            if (r == 0) {   /* other bytes: decoded here (no GIL), or, when not well-formed, below with it */
                r = decode_kept((const unsigned char *)bufs[side].buf + (u[side][0] - base[side]),
                                (Py_ssize_t)(u[side][1] - u[side][0]), &t[side], &c.decoded, &c.ndecoded, &c.dcap);
                if (r < 0) { bad = 1; break; }
            }
            if (r > 0) tx[side] = &t[side];
            else plain = 0;
        }
        if (bad) break;
        if (plain) {
            if (coder_pair(&c, tx, k) < 0) bad = 1;
            continue;
        }
        PyEval_RestoreThread(ts);
        PyObject *str[2] = {NULL, NULL};
        for (int side = 0; side < 2 && !bad; side++) {
            int r = unit_text(&bufs[side], base[side], u[side], &t[side], &str[side], ascii[side]);
            if (r < 0) bad = 1;
            tx[side] = r > 0 ? &t[side] : NULL;
        }
        if (!bad && coder_pair(&c, tx, k) < 0) bad = 1;
        Py_XDECREF(str[0]); Py_XDECREF(str[1]);
        ts = PyEval_SaveThread();
    }
    PyEval_RestoreThread(ts);
    if (bad == 2) PyErr_SetString(PyExc_ValueError, "pair_codes_units: a unit outside its buffer");
    else if (bad == 1 && !PyErr_Occurred()) PyErr_NoMemory();
    if (bad) goto out;
    result = coder_result(&c, np);
out:
    if (ready) coder_free(&c);
    for (int side = 0; side < 2; side++) { PyBuffer_Release(&bufs[side]); PyBuffer_Release(&units[side]); }
    return result;
}

/* ------------------------------------------------------------ Smatch codes of a chunk
 *
 *   code_pairs_units(gold_buf, gold_base, gold_units, system_buf, system_base, system_units,
 *                    keep, k0) -> (ids, counts, codes, offsets, refused)
 *
 * code_pair of every pair of a chunk of two files' blocks given as byte ranges (the
 * arguments of pair_codes_units), in one call and, for blocks of ASCII bytes, without the
 * GIL: another thread codes or scores other chunks meanwhile (`mrkit smatch -j 2`).  Per
 * pair k: ids[k] the gold block's `# ::id` value, or str(k0 + k + 1) without one (None when
 * refused); counts[k], counts[np + k] (int64 bytes; np pairs) its gold and system triples
 * (0 when refused); its codes
 * (code_pair's layout, for _kernel.smatch_stage / smatch_stages) are the int64 values
 * offsets[k]:offsets[k + 1] of `codes` (a read-only memoryview); `refused` the pairs
 * code_pair gives None for (an empty range in `offsets`).  Each pair is coded exactly as
 * code_pair codes its decoded blocks, with a string table of its own
 * (tests/features/test_code_pairs_units.py). */

/* st_init(t, 256, 4096)'s state again (st_reset) */
static int st_clear(strtab *t) { return st_reset(t, 256, 4096); }

/* the codes of one pair (texts ta, tb) appended to out: 1 done; 0 refused (out as it was);
 * -1 memory or a Python error (with the GIL: set; without it: none set).  *na, *nb: its
 * triples; *id / *id_p, *id_n: the gold block's id as code_pair finds it */
static int code_one_pair(const text_t *ta, const text_t *tb, graph_t *ga, graph_t *gb, strtab *words,
                         const keep_t *kp, vec_t v[6], char **tmp, size_t *tcap, cg_work_t *W, vec_t *out,
                         Py_ssize_t *na_out, Py_ssize_t *nb_out) {
    int ra = read_text(ta, ga, 1);
    if (ra <= 0) return ra;
    int rb = read_text(tb, gb, 0);
    if (rb <= 0) return rb;
    if (st_clear(words) < 0) return -1;
    for (int q = 0; q < 6; q++) v[q].n = 0;
    Py_ssize_t na = code_graph(ta, ga, words, kp, &v[0], &v[1], &v[2], tmp, tcap, W);
    if (na == -1) return -1;
    Py_ssize_t nb = na < 0 ? -2 : code_graph(tb, gb, words, kp, &v[3], &v[4], &v[5], tmp, tcap, W);
    if (nb == -1) return -1;
    if (na < 0 || nb < 0) return 0;
    size_t total = pair_codes_size(v);
    if (vreserve(out, total) < 0) return -1;
    pair_codes_write(out->v + out->n, ga->n_nodes, gb->n_nodes, v);
    out->n += total;
    *na_out = na;
    *nb_out = nb;
    return 1;
}

static PyObject *t_code_pairs_units(PyObject *self, PyObject *args) {
    Py_buffer bufs[2], units[2];
    long long base[2];
    PyObject *keep;
    Py_ssize_t k0;
    if (!PyArg_ParseTuple(args, "y*Ly*y*Ly*O!n", &bufs[0], &base[0], &units[0], &bufs[1], &base[1], &units[1],
                          &PyTuple_Type, &keep, &k0))
        return NULL;
    PyObject *result = NULL, *ids = NULL, *counts = NULL, *offsets = NULL, *refused = NULL, *codes = NULL;
    strtab words = {0};
    keep_t kp = {0};
    graph_t ga, gb;
    memset(&ga, 0, sizeof ga);
    memset(&gb, 0, sizeof gb);
    cg_work_t W = {0};
    vec_t v[6] = {{0}}, out = {0}, ref = {0};
    char *tmp = NULL;
    size_t tcap = 0;
    const char **id_p = NULL;
    Py_ssize_t *id_n = NULL;
    unsigned char *id_k = NULL;   /* per pair: id_kind of its id_p */
    void **decoded = NULL;        /* the texts decoded here (ids may point into them) */
    size_t ndecoded = 0, dcap = 0;
    Py_ssize_t np = units[0].len / 24;
    if (units[0].len % 24 || units[1].len != units[0].len) {
        PyErr_SetString(PyExc_ValueError, "code_pairs_units: units of different lengths (or not int64 triples)");
        goto out;
    }
    if (keep_of(keep, &kp) < 0) goto out;
    if (st_init(&words, 256, 4096) < 0 || !(id_p = calloc((size_t)np + 1, sizeof *id_p))
        || !(id_n = calloc((size_t)np + 1, sizeof *id_n)) || !(id_k = calloc((size_t)np + 1, 1))) {
        PyErr_NoMemory();
        goto out;
    }
    if (!(ids = PyList_New(np))) goto out;
    for (Py_ssize_t k = 0; k < np; k++) { Py_INCREF(Py_None); PyList_SET_ITEM(ids, k, Py_None); }
    if (!(counts = PyBytes_FromStringAndSize(NULL, 16 * np))) goto out;
    if (!(offsets = PyBytes_FromStringAndSize(NULL, 8 * (np + 1)))) goto out;
    int64_t *cnt = (int64_t *)PyBytes_AS_STRING(counts), *off = (int64_t *)PyBytes_AS_STRING(offsets);
    off[0] = 0;
    /* Without the GIL (the buffers are held; a pair of ASCII blocks needs no Python object,
     * other UTF-8 is decoded in C); a pair with a block that is not well-formed UTF-8 takes
     * it back. */
    PyThreadState *ts = PyEval_SaveThread();
    int ascii[2], bad = 0;
    for (int side = 0; side < 2; side++) ascii[side] = all_ascii(bufs[side].buf, bufs[side].len);
    for (Py_ssize_t k = 0; k < np && !bad; k++) {
        text_t t[2];
        int64_t u[2][3];
        int plain = 1;
        for (int side = 0; side < 2; side++) {
            int r = unit_plain(&bufs[side], base[side], &units[side], k, ascii[side], u[side], &t[side]);
            if (r < 0) { bad = 2; break; }
            if (r > 0) continue;
            /* other bytes: decoded here (no GIL), or, when not well-formed, below with it */
            int d = decode_kept((const unsigned char *)bufs[side].buf + (u[side][0] - base[side]),
                                (Py_ssize_t)(u[side][1] - u[side][0]), &t[side], &decoded, &ndecoded, &dcap);
            if (d < 0) { bad = 1; break; }
            if (d == 0) plain = 0;
        }
        if (bad) break;
        Py_ssize_t na = 0, nb = 0;
        int r;
        if (plain) {
            r = code_one_pair(&t[0], &t[1], &ga, &gb, &words, &kp, v, &tmp, &tcap, &W, &out, &na, &nb);
            if (r > 0 && ga.id_p) { id_p[k] = ga.id_p; id_n[k] = ga.id_n; id_k[k] = (unsigned char)ga.id_kind; }
        } else {
            PyEval_RestoreThread(ts);
            PyObject *str[2] = {NULL, NULL};
            r = 1;
            for (int side = 0; side < 2 && r > 0; side++)
                r = unit_text(&bufs[side], base[side], u[side], &t[side], &str[side], ascii[side]);
            if (r > 0) r = code_one_pair(&t[0], &t[1], &ga, &gb, &words, &kp, v, &tmp, &tcap, &W, &out, &na, &nb);
            if (r > 0 && ga.id) {   /* the id as a str (as code_pair gives it) */
                PyObject *was = PyList_GET_ITEM(ids, k);
                PyList_SET_ITEM(ids, k, ga.id);
                ga.id = NULL;
                Py_DECREF(was);
            } else if (r > 0 && ga.id_p) {
                id_p[k] = ga.id_p; id_n[k] = ga.id_n; id_k[k] = (unsigned char)ga.id_kind;
            }
            Py_CLEAR(ga.id);
            Py_CLEAR(gb.id);
            if (r < 0 && !PyErr_Occurred()) PyErr_NoMemory();
            Py_XDECREF(str[0]); Py_XDECREF(str[1]);
            ts = PyEval_SaveThread();
            if (r < 0) { bad = 3; break; }
        }
        if (r < 0) { bad = 1; break; }
        if (r == 0 && vpush(&ref, k) < 0) { bad = 1; break; }
        if (r == 0) na = nb = 0;
        cnt[k] = na;
        cnt[np + k] = nb;
        off[k + 1] = (int64_t)out.n;
    }
    PyEval_RestoreThread(ts);
    if (bad == 2) PyErr_SetString(PyExc_ValueError, "code_pairs_units: a unit outside its buffer");
    else if (bad == 1 && !PyErr_Occurred()) PyErr_NoMemory();
    if (bad) goto out;
    /* ids: read from the bytes, or the pair's number */
    for (Py_ssize_t k = 0; k < np; k++) {
        PyObject *x = NULL;
        if (id_p[k] && id_k[k]) x = PyUnicode_FromKindAndData(id_k[k], id_p[k], id_n[k]);
        else if (id_p[k]) x = PyUnicode_FromStringAndSize(id_p[k], id_n[k]);
        else if (PyList_GET_ITEM(ids, k) == Py_None) x = PyUnicode_FromFormat("%zd", k0 + k + 1);
        else continue;
        if (!x) goto out;
        PyObject *was = PyList_GET_ITEM(ids, k);
        PyList_SET_ITEM(ids, k, x);
        Py_DECREF(was);
    }
    if (!(refused = PyList_New((Py_ssize_t)ref.n))) goto out;
    for (size_t q = 0; q < ref.n; q++) {
        PyObject *x = PyLong_FromLongLong(ref.v[q]);
        if (!x) goto out;
        PyList_SET_ITEM(refused, (Py_ssize_t)q, x);
        /* a refused pair's id: None (the general path reads it) */
        PyObject *was = PyList_GET_ITEM(ids, ref.v[q]);
        Py_INCREF(Py_None);
        PyList_SET_ITEM(ids, ref.v[q], Py_None);
        Py_DECREF(was);
    }
    codes = codes_view(out.v, out.n);
    out.v = NULL;
    if (!codes) goto out;
    result = Py_BuildValue("(OOOOO)", ids, counts, codes, offsets, refused);
out:
    Py_XDECREF(ids); Py_XDECREF(counts); Py_XDECREF(offsets); Py_XDECREF(refused); Py_XDECREF(codes);
    keep_free(&kp);
    st_free(&words);
    graph_free(&ga);
    graph_free(&gb);
    for (int q = 0; q < 6; q++) free(v[q].v);
    cg_work_free(&W);
    free(out.v); free(ref.v); free(tmp); free(id_p); free(id_n); free(id_k);
    for (size_t q = 0; q < ndecoded; q++) free(decoded[q]);
    free(decoded);
    for (int side = 0; side < 2; side++) { PyBuffer_Release(&bufs[side]); PyBuffer_Release(&units[side]); }
    return result;
}

static PyMethodDef methods[] = {
    {"code_pair", t_code_pair, METH_VARARGS,
     "code_pair(gold_block, system_block, keep) -> (id, n_gold, n_system, codes) | None"},
    {"block_triples", t_block_triples, METH_VARARGS,
     "block_triples(block, keep) -> (id, variables, instances, attributes, relations, tops) | None"},
    {"pair_codes", t_pair_codes, METH_VARARGS,
     "pair_codes(gold_blocks, system_blocks, keep) -> (ids, codes, refused): int64-coded triples of many pairs"},
    {"pair_codes_units", t_pair_codes_units, METH_VARARGS,
     "pair_codes_units(gold_buf, gold_base, gold_units, system_buf, system_base, system_units, keep) -> "
     "(ids, codes, refused): pair_codes of two files' blocks given as byte ranges"},
    {"code_pairs_units", t_code_pairs_units, METH_VARARGS,
     "code_pairs_units(gold_buf, gold_base, gold_units, system_buf, system_base, system_units, keep, k0) -> "
     "(ids, counts, codes, offsets, refused): code_pair of a chunk of pairs given as byte ranges"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_triples",
                                       "Compiled Smatch triples of a pair of PENMAN blocks, integer-coded.",
                                       -1, methods};

PyMODINIT_FUNC PyInit__triples(void) {
    fill_classes();
    if (PyType_Ready(&codes_type) < 0) return NULL;
    return PyModule_Create(&moduledef);
}
