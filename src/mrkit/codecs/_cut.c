/*
 * mrkit.codecs._cut: where the graphs of a PENMAN file begin and end, found in its raw
 * UTF-8 bytes, without creating a Python object per graph.
 *
 *   scan(buf, offset, state, final, graphs) -> (units, state, status)
 *
 * `buf` is the next piece of the file (bytes; every piece but the last ends with '\n'),
 * `offset` its position in the file, `state` what the previous call returned (None at the
 * start of the file), `final` true for the last piece. `units` is bytes of int64 triples
 * (start, end, line): the byte range of each unit finished in this piece and the number of
 * its first line (from 1). `status`: 0 fine; 1 a byte sequence that is not UTF-8 (as
 * Python's strict decoder sees it); 2 (only with `graphs`) a block was cut into graphs
 * where the text of a graph's id would not be the same as in the whole block (see below).
 * On a status other than 0 the caller stops and reads the file the general way.
 * scan(..., graphs, vector=True) is the fast path (SSE2 where the build has it; `vector`
 * false: its portable byte loops); scan_reference(buf, offset, state, final, graphs) is
 * the scanner as first written, kept as the reference the tests compare it with (==).
 *
 * A unit is what penman.py's blocks are with content_only (iter_block_lists): a run of
 * lines that are not blank (a line ends at '\n'; it is blank when every character is
 * whitespace as str.strip() sees it), holding a line that after spaces and tabs starts
 * with a character other than '#' and whitespace. The text of a unit is its bytes from the
 * start of its first line to the end of its last line, '\n' included (a leading byte order
 * mark of the file is not part of any unit).
 *
 * With `graphs`, a block holding several graphs one after the other (no blank line between
 * them) is cut into one unit per graph, at the start of the line that opens the next graph
 * (or of the comment lines directly before it: they are its metadata), so that each unit
 * parses to the graph the whole block gives at that place, with the same line numbers. It
 * is cut only where that is certain from the lines alone: a graph that closes at the end of
 * its line (nothing but whitespace after the last ')'), the next line at depth 0 opening
 * with '(' or a comment line. Anything unusual -- text other than a comment or '(' after a
 * graph, a '#' or an unclosed string in a graph line, a ')' too many, a comment line inside
 * a graph -- leaves the rest of the block whole: it parses (or fails) as the whole block
 * does today. Identifiers: the first graph of a block takes the first `# ::id` of the whole
 * block when it has no id of its own, a later graph never does; so a cut block whose
 * `::id` lines are not all clean metadata lines before their own graph (or whose first
 * graph has none while a later one has) gives status 2.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    S_LINE, S_INBLOCK, S_USTART, S_ULINE, S_CONTENT, S_DEPTH, S_DONE, S_NOCUT, S_PEND, S_PENDLINE,
    S_UNITS, S_U0ID, S_LATERID, S_BAD, S_PENDID, S_PENDBAD, S_FIRST, S_BLOCKSTART, S_BLOCKLINE,
    S_BLOCKCONTENT, NSTATE
};

typedef struct {
    int64_t *v;
    Py_ssize_t n, cap;
} obuf;

static int push(obuf *o, int64_t a, int64_t b, int64_t c) {
    if (o->n + 3 > o->cap) {
        Py_ssize_t cap = o->cap ? 2 * o->cap : 768;
        int64_t *v = realloc(o->v, (size_t)cap * sizeof(int64_t));  /* no GIL held */
        if (!v) return -1;
        o->v = v;
        o->cap = cap;
    }
    o->v[o->n++] = a;
    o->v[o->n++] = b;
    o->v[o->n++] = c;
    return 0;
}

/* Length of the UTF-8 sequence at p (< end) as Python's strict decoder accepts it, 0 if
 * invalid; *cp receives the code point. */
static int utf8_len(const unsigned char *p, const unsigned char *end, uint32_t *cp) {
    unsigned char c = p[0];
    if (c < 0x80) { *cp = c; return 1; }
    if (c < 0xC2) return 0;
    if (c < 0xE0) {
        if (end - p < 2 || (p[1] & 0xC0) != 0x80) return 0;
        *cp = ((uint32_t)(c & 0x1F) << 6) | (p[1] & 0x3F);
        return 2;
    }
    if (c < 0xF0) {
        if (end - p < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) return 0;
        if (c == 0xE0 && p[1] < 0xA0) return 0;   /* overlong */
        if (c == 0xED && p[1] >= 0xA0) return 0;  /* surrogate */
        *cp = ((uint32_t)(c & 0x0F) << 12) | ((uint32_t)(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
        return 3;
    }
    if (c < 0xF5) {
        if (end - p < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80)
            return 0;
        if (c == 0xF0 && p[1] < 0x90) return 0;   /* overlong */
        if (c == 0xF4 && p[1] >= 0x90) return 0;  /* above U+10FFFF */
        *cp = ((uint32_t)(c & 0x07) << 18) | ((uint32_t)(p[1] & 0x3F) << 12) |
              ((uint32_t)(p[2] & 0x3F) << 6) | (p[3] & 0x3F);
        return 4;
    }
    return 0;
}

static int is_space(uint32_t c) { return Py_UNICODE_ISSPACE((Py_UCS4)c); }

/* the characters the graph scan looks at */
static const unsigned char special[256] = {['"'] = 1, ['#'] = 1, ['('] = 1, [')'] = 1, [':'] = 1};

/* str.isspace() of the ASCII characters: \t \n \v \f \r, \x1c-\x1f, space */
static const unsigned char ascii_space[128] = {
    [9] = 1, [10] = 1, [11] = 1, [12] = 1, [13] = 1, [28] = 1, [29] = 1, [30] = 1, [31] = 1, [32] = 1};

/* An `::id` line is clean when penman.py's metadata reading gives it a non-empty id:
 * "::id" then a space, then (up to the next "::") something other than whitespace. */
static int id_clean(const unsigned char *a, const unsigned char *b) {
    const unsigned char *p = a;
    int found = 0, clean = 1;
    while (p + 4 <= b) {
        if (p[0] == ':' && p[1] == ':' && p[2] == 'i' && p[3] == 'd') {
            found = 1;
            const unsigned char *q = p + 4;
            int ok = 0;
            if (q < b && *q == ' ') {
                for (q++; q < b; q++) {
                    if (q + 1 < b && q[0] == ':' && q[1] == ':') break;
                    if (!(*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n' || *q == '\v' || *q == '\f')) {
                        ok = 1;
                        break;
                    }
                }
            }
            clean &= ok;
            p += 4;
        } else {
            p++;
        }
    }
    return found ? (clean ? 1 : -1) : 0;  /* 0: no ::id; 1: clean; -1: not clean */
}

static int has_id(const unsigned char *a, const unsigned char *b) {
    return b - a >= 4 && memmem(a, (size_t)(b - a), "::id", 4) != NULL;
}

/* the end of a block (a blank line or the end of the file): its ambiguity, its last unit */
static int end_block(int64_t *st, int64_t end, obuf *o) {
    if (!st[S_INBLOCK]) return 0;
    if (st[S_PEND] >= 0) {  /* comments after the last graph: they stay in its unit */
        if (st[S_PENDID] || st[S_PENDBAD]) st[S_BAD] = 1;
        st[S_PEND] = -1;
    }
    if (st[S_UNITS] >= 2 && (st[S_BAD] || (!st[S_U0ID] && st[S_LATERID]))) return 2;
    if (st[S_CONTENT] && push(o, st[S_USTART], end, st[S_ULINE]) < 0) return -1;
    st[S_INBLOCK] = 0;
    return 0;
}

static PyObject *p_scan_reference(PyObject *self, PyObject *args) {
    Py_buffer view;
    long long offset;
    PyObject *state;
    int final, graphs;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*LOpp", &view, &offset, &state, &final, &graphs)) return NULL;
    int64_t st[NSTATE];
    if (state == Py_None) {
        memset(st, 0, sizeof st);
        st[S_LINE] = 1;
        st[S_PEND] = -1;
        st[S_FIRST] = 1;
    } else {
        if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != NSTATE) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "scan: a state returned by scan() or None");
            return NULL;
        }
        for (int k = 0; k < NSTATE; k++) {
            st[k] = PyLong_AsLongLong(PyTuple_GET_ITEM(state, k));
            if (st[k] == -1 && PyErr_Occurred()) { PyBuffer_Release(&view); return NULL; }
        }
    }
    const unsigned char *buf = view.buf, *end = buf + view.len, *p = buf;
    obuf o = {NULL, 0, 0};
    int status = 0;
    PyThreadState *save = PyEval_SaveThread();  /* plain C on a buffer: other threads run */
    if (st[S_FIRST]) {
        st[S_FIRST] = 0;
        if (view.len >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF) p += 3;
    }
    /* blocks only (no cutting into graphs) of ASCII bytes (all valid UTF-8): a tight loop,
     * each line read once -- its indentation 8 bytes at a time, then memchr from there */
    int fast = 0;
    if (!graphs) {
        unsigned char any = 0;   /* (a loop the compiler vectorises) */
        for (const unsigned char *q = p; q < end; q++) any |= *q;
        fast = !(any & 0x80);
    }
    if (fast) {
        int64_t line = st[S_LINE];
        while (p < end) {
            const unsigned char *ls = p, *q = p;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            while (end - q >= 8) {
                uint64_t w;
                memcpy(&w, q, 8);
                w ^= 0x2020202020202020ULL;
                if (w) { q += __builtin_ctzll(w) >> 3; break; }
                q += 8;
            }
#endif
            while (q < end && (*q == ' ' || *q == '\t')) q++;
            const unsigned char *le = q < end ? memchr(q, '\n', (size_t)(end - q)) : NULL;
            const unsigned char *next = le ? le + 1 : end;
            if (!le) {
                if (!final) break;  /* an unfinished line: the caller gives whole lines */
                le = end;
            }
            int64_t at = offset + (ls - buf);
            unsigned char first = q < le ? *q : '\n';
            if (ascii_space[first]) {   /* blank unless a character that is not whitespace follows */
                while (q < le && ascii_space[*q]) q++;
            }
            if (q == le) {   /* blank: the end of a block (end_block without graphs) */
                if (st[S_INBLOCK]) {
                    if (st[S_CONTENT] && push(&o, st[S_USTART], at, st[S_ULINE]) < 0) goto fail;
                    st[S_INBLOCK] = 0;
                }
            } else {
                if (!st[S_INBLOCK]) {
                    st[S_INBLOCK] = 1;
                    st[S_USTART] = at; st[S_ULINE] = line; st[S_CONTENT] = 0;
                    st[S_DEPTH] = 0; st[S_DONE] = 0; st[S_NOCUT] = 1; st[S_PEND] = -1;
                    st[S_UNITS] = 1; st[S_U0ID] = 0; st[S_LATERID] = 0; st[S_BAD] = 0;
                    st[S_PENDID] = 0; st[S_PENDBAD] = 0;
                }
                if (first != '#' && !ascii_space[first]) st[S_CONTENT] = 1;
            }
            line++;
            p = next;
        }
        st[S_LINE] = line;
    }
    while (!fast && p < end && status == 0) {
        const unsigned char *ls = p, *le = memchr(p, '\n', (size_t)(end - p));
        const unsigned char *next = le ? le + 1 : end;
        if (!le) {
            if (!final) break;  /* an unfinished line: the caller gives whole lines */
            le = end;
        }
        int64_t at = offset + (ls - buf);
        /* the line: blank? first character after spaces and tabs? valid UTF-8? */
        int blank = 1, ascii = 1;
        uint32_t first = 0;
        int have_first = 0;
        const unsigned char *q0 = ls;   /* leading spaces and tabs: blank so far, no first */
        while (q0 < le && (*q0 == ' ' || *q0 == '\t')) q0++;
        for (const unsigned char *q = q0; q < le;) {
            uint32_t c = 0;
            int n;
            if (*q < 0x80) {
                c = *q;
                n = 1;
            } else {
                n = utf8_len(q, le, &c);
                if (n == 0) { status = 1; break; }
                ascii = 0;
            }
            if (!have_first && c != ' ' && c != '\t') { first = c; have_first = 1; }
            if (blank && !(c < 0x80 ? ascii_space[c] : is_space(c))) blank = 0;
            q += n;
            if (!blank && have_first) {  /* the rest of the line: only whether it is UTF-8 */
                while (q < le) {
                    if (le - q >= 8) {
                        uint64_t w;
                        memcpy(&w, q, 8);
                        if (!(w & 0x8080808080808080ULL)) { q += 8; continue; }
                    }
                    if (*q < 0x80) { q++; continue; }
                    n = utf8_len(q, le, &c);
                    if (n == 0) { status = 1; break; }
                    q += n;
                }
                break;
            }
        }
        if (status) break;
        if (blank) {
            int r = end_block(st, at, &o);
            if (r < 0) goto fail;
            if (r > 0) { status = r; break; }
        } else {
            int content = have_first && first != '#' && !(first < 0x80 ? ascii_space[first] : is_space(first));
            int comment = have_first && first == '#';
            if (!st[S_INBLOCK]) {
                st[S_INBLOCK] = 1;
                st[S_USTART] = at; st[S_ULINE] = st[S_LINE]; st[S_CONTENT] = 0;
                st[S_DEPTH] = 0; st[S_DONE] = 0; st[S_NOCUT] = !graphs; st[S_PEND] = -1;
                st[S_UNITS] = 1; st[S_U0ID] = 0; st[S_LATERID] = 0; st[S_BAD] = 0;
                st[S_PENDID] = 0; st[S_PENDBAD] = 0;
            }
            if (!st[S_NOCUT]) {
                const unsigned char *q = ls;
                while (q < le && (*q == ' ' || *q == '\t')) q++;
                if (comment) {
                    int id = id_clean(q, le);
                    if (st[S_DEPTH] > 0) {
                        st[S_NOCUT] = 1;
                        if (id) st[S_BAD] = 1;
                    } else if (st[S_DONE]) {  /* after a graph: the next one's, or trailing */
                        if (st[S_PEND] < 0) { st[S_PEND] = at; st[S_PENDLINE] = st[S_LINE]; }
                        if (id) st[S_PENDID] = 1;
                        if (id < 0) st[S_PENDBAD] = 1;
                    } else if (id) {  /* before the unit's graph */
                        if (id < 0) st[S_BAD] = 1;
                        if (st[S_UNITS] == 1) st[S_U0ID] = 1; else st[S_LATERID] = 1;
                    }
                } else if (first == '(' || st[S_DEPTH] > 0) {
                    /* graph text; a graph may close mid-line and the next one (or its
                     * comment) follow on the same line: cut there */
                    int64_t depth = st[S_DEPTH];
                    int idseen = 0;  /* an ::id among the graph text of the line */
                    while (q < le && !st[S_NOCUT]) {
                        if (depth == 0 && st[S_DONE]) {  /* the next graph: cut */
                            int64_t cut = st[S_PEND] >= 0 ? st[S_PEND] : offset + (q - buf);
                            int64_t cutline = st[S_PEND] >= 0 ? st[S_PENDLINE] : st[S_LINE];
                            /* both units hold a graph: content */
                            if (push(&o, st[S_USTART], cut, st[S_ULINE]) < 0) goto fail;
                            st[S_USTART] = cut; st[S_ULINE] = cutline; st[S_CONTENT] = 1;
                            st[S_UNITS]++;
                            if (st[S_PENDID]) st[S_LATERID] = 1;
                            if (st[S_PENDBAD]) st[S_BAD] = 1;
                            st[S_PEND] = -1; st[S_PENDID] = 0; st[S_PENDBAD] = 0; st[S_DONE] = 0;
                            if (st[S_BAD] || (!st[S_U0ID] && st[S_LATERID])) { status = 2; break; }
                        }
                        for (; q < le; q++) {
                            unsigned char c = *q;
                            if (!special[c]) continue;
                            if (c == ':') {
                                if (le - q >= 4 && q[1] == ':' && q[2] == 'i' && q[3] == 'd') idseen = 1;
                            } else if (c == '"') {
                                for (q++; q < le && *q != '"'; q++) {
                                    if (*q == '\\') q++;
                                    else if (*q == ':' && le - q >= 4 && q[1] == ':' && q[2] == 'i' && q[3] == 'd')
                                        idseen = 1;
                                }
                                if (q >= le) { st[S_NOCUT] = 1; break; }
                            } else if (c == '#') {
                                st[S_NOCUT] = 1;
                                break;
                            } else if (c == '(') {
                                depth++;
                            } else if (c == ')') {
                                if (--depth <= 0) break;
                            }
                        }
                        if (st[S_NOCUT] || q >= le) break;
                        if (depth < 0) { st[S_NOCUT] = 1; break; }
                        /* the graph closed at q: what follows on its line? */
                        st[S_DONE] = 1;
                        for (q++; q < le;) {
                            uint32_t cp = 0;
                            int n = utf8_len(q, le, &cp);
                            if (!is_space(cp)) break;
                            q += n;
                        }
                        if (q >= le) break;
                        if (*q == '#') {  /* a comment: the next graph's metadata, or trailing */
                            int id = id_clean(q, le);
                            st[S_PEND] = offset + (q - buf); st[S_PENDLINE] = st[S_LINE];
                            if (id) st[S_PENDID] = 1;
                            if (id < 0) st[S_PENDBAD] = 1;
                            break;
                        }
                        if (*q != '(') st[S_NOCUT] = 1;  /* other text after the graph */
                    }
                    if (status) break;
                    st[S_DEPTH] = depth;
                    if (st[S_NOCUT] && has_id(ls, le)) idseen = 1;  /* the line was not read to its end */
                    if (idseen) st[S_BAD] = 1;  /* an ::id among a graph's lines */
                } else {
                    st[S_NOCUT] = 1;  /* text that is neither a graph nor a comment */
                }
                (void)ascii;
                if (st[S_NOCUT]) {  /* the rest of the block stays in this unit */
                    if (st[S_PEND] >= 0) {
                        if (st[S_PENDID] || st[S_PENDBAD]) st[S_BAD] = 1;
                        st[S_PEND] = -1;
                    }
                }
            } else if (graphs && st[S_UNITS] >= 2 && has_id(ls, le)) {
                st[S_BAD] = 1;  /* an ::id in the uncut rest of a cut block */
            }
            st[S_CONTENT] |= content;
        }
        st[S_LINE]++;
        p = next;
    }
    if (status == 0 && final && p >= end) {
        int r = end_block(st, offset + view.len, &o);
        if (r < 0) goto fail;
        if (r > 0) status = r;
    }
    PyEval_RestoreThread(save);
    PyBuffer_Release(&view);
    PyObject *units = PyBytes_FromStringAndSize((const char *)o.v, (Py_ssize_t)(o.n * (Py_ssize_t)sizeof(int64_t)));
    free(o.v);
    if (!units) return NULL;
    PyObject *nst = PyTuple_New(NSTATE);
    if (!nst) { Py_DECREF(units); return NULL; }
    for (int k = 0; k < NSTATE; k++) {
        PyObject *v = PyLong_FromLongLong(st[k]);
        if (!v) { Py_DECREF(units); Py_DECREF(nst); return NULL; }
        PyTuple_SET_ITEM(nst, k, v);
    }
    return Py_BuildValue("(NNi)", units, nst, status);
fail:
    PyEval_RestoreThread(save);
    PyBuffer_Release(&view);
    free(o.v);
    return PyErr_NoMemory();
}

/* ---------------------------------------------------------------------------------------
 * scan(): the same output as scan_reference() above (units, state and status, for any
 * split of the file into pieces), faster.  scan_reference() reads every line twice byte by
 * byte (UTF-8 validity, blankness and first character; then, with `graphs`, a table
 * lookup per byte for the characters the cutting looks at).  scan() instead:
 *   - finds each line's end and whether the line is all ASCII from bit masks of 64 bytes
 *     ('\n' and the bytes' top bits, SSE2), and validates UTF-8 only on lines that are not;
 *   - looks for "::id" only where a line's handling needs to know, 16 positions at a time,
 *     the next one of the piece kept: a comment line without one skips id_clean(), and the
 *     graph text of a line without one is searched for '"', '#', '(' and ')' but not ':';
 *   - reads a graph line of at most 64 bytes (from its first character) from one set of
 *     masks of those four: where the rest of the line holds no '"' or '#' and fewer ')'
 *     than the depth, the depth moves by the counts of '(' and ')' at once; longer lines
 *     are searched 16 bytes at a time;
 *   - reads a line holding "::id" in its graph text as scan_reference() does (a colon at a
 *     time, strings' escapes included), and so the whitespace that is not ASCII at a
 *     line's head or after a graph (code points, as is_space() sees them);
 *   - with `vector` false (what builds without SSE2 run, and tests check): memchr and byte
 *     loops (8 bytes at a time where they can) instead of the masks;
 *   - without `graphs`, a piece that is all ASCII takes the reference's tight loop.
 * ------------------------------------------------------------------------------------- */

#if defined(__SSE2__)
#include <emmintrin.h>
#define CUT_SSE2 1
#else
#define CUT_SSE2 0
#endif

/* the first byte of [p, end) that is not ASCII, or end */
static const unsigned char *find_nonascii(const unsigned char *p, const unsigned char *end, int vector) {
#if CUT_SSE2
    if (vector) {
        while (end - p >= 64) {
            __m128i a = _mm_loadu_si128((const __m128i *)p), b = _mm_loadu_si128((const __m128i *)(p + 16));
            __m128i c = _mm_loadu_si128((const __m128i *)(p + 32)), d = _mm_loadu_si128((const __m128i *)(p + 48));
            if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)))) break;
            p += 64;
        }
        while (end - p >= 16) {
            int m = _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)p));
            if (m) return p + __builtin_ctz((unsigned)m);
            p += 16;
        }
    }
#else
    (void)vector;
#endif
    while (end - p >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        if (w & 0x8080808080808080ULL) break;
        p += 8;
    }
    while (p < end && *p < 0x80) p++;
    return p;
}

/* the first "::id" of [p, end), or end; bytes up to lim (>= end) may be read (SSE2: the
 * four bytes compared 16 positions at a time, each of the four loads ending before lim) */
static const unsigned char *find_id(const unsigned char *p, const unsigned char *end, const unsigned char *lim,
                                    int vector) {
#if CUT_SSE2
    if (vector) {
        const __m128i colon = _mm_set1_epi8(':'), i = _mm_set1_epi8('i'), d = _mm_set1_epi8('d');
        while (end - p >= 4 && lim - p >= 19) {
            __m128i a = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), colon);
            __m128i b = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 1)), colon);
            __m128i c = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 2)), i);
            __m128i e = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 3)), d);
            unsigned m = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_and_si128(a, b), _mm_and_si128(c, e)));
            if (m) {
                const unsigned char *r = p + __builtin_ctz(m);
                return end - r >= 4 ? r : end;
            }
            p += 16;
        }
    }
#else
    (void)lim;
    (void)vector;
#endif
    for (; end - p >= 4; p++)
        if (p[0] == ':' && p[1] == ':' && p[2] == 'i' && p[3] == 'd') return p;
    return end;
}

/* has_id(ls, le) of the line [ls, le), from the first "::id" at or after the previous
 * line's start (*idp; NULL: not looked for yet), which it advances: "::id" holds no '\n',
 * so an "::id" starting in the line ends in it */
static inline int line_has_id(const unsigned char **idp, const unsigned char *ls, const unsigned char *le,
                              const unsigned char *end, int vector) {
    if (!*idp || *idp < ls) *idp = find_id(ls, end, end, vector);
    return *idp < le;
}

/* id_clean() (the same value), each "::id" found with find_id() instead of a byte loop:
 * the byte loop also finds the leftmost match at or after p, then goes on after it */
static int id_clean_fast(const unsigned char *a, const unsigned char *b, const unsigned char *lim, int vector) {
    const unsigned char *p = a;
    int found = 0, clean = 1;
    while (b - p >= 4) {
        const unsigned char *m = find_id(p, b, lim, vector);
        if (m == b) break;
        found = 1;
        const unsigned char *q = m + 4;
        int ok = 0;
        if (q < b && *q == ' ') {
            for (q++; q < b; q++) {
                if (q + 1 < b && q[0] == ':' && q[1] == ':') break;
                if (!(*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n' || *q == '\v' || *q == '\f')) {
                    ok = 1;
                    break;
                }
            }
        }
        clean &= ok;
        p = m + 4;
    }
    return found ? (clean ? 1 : -1) : 0;
}

/* whether [p, end) is UTF-8 as Python's strict decoder sees it */
static int utf8_valid(const unsigned char *p, const unsigned char *end) {
    while (p < end) {
        if (*p < 0x80) {
            if (end - p >= 8) {
                uint64_t w;
                memcpy(&w, p, 8);
                if (!(w & 0x8080808080808080ULL)) { p += 8; continue; }
            }
            p++;
            continue;
        }
        if (*p >= 0xE1 && *p != 0xED && *p <= 0xEF && end - p >= 3 && (p[1] & 0xC0) == 0x80 &&
            (p[2] & 0xC0) == 0x80) {
            p += 3;  /* three bytes (CJK...), neither overlong nor a surrogate: utf8_len's 3 */
            continue;
        }
        uint32_t cp;
        int n = utf8_len(p, end, &cp);
        if (n == 0) return 0;
        p += n;
    }
    return 1;
}

/* spaces and tabs from q on */
static inline const unsigned char *skip_indent(const unsigned char *q, const unsigned char *le) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (le - q >= 8) {
        uint64_t w;
        memcpy(&w, q, 8);
        w ^= 0x2020202020202020ULL;
        if (w) { q += __builtin_ctzll(w) >> 3; break; }
        q += 8;
    }
#endif
    while (q < le && (*q == ' ' || *q == '\t')) q++;
    return q;
}

/* '"', '#', '(' and ')': what the graph text is searched for when its line has no "::id" */
static const unsigned char special_noid[256] = {['"'] = 1, ['#'] = 1, ['('] = 1, [')'] = 1};

/* the first of those in [q, le), or le; bytes up to `end` (the piece's) may be read */
static inline const unsigned char *next_special(const unsigned char *q, const unsigned char *le,
                                                const unsigned char *end, int vector) {
#if CUT_SSE2
    if (vector) {
        /* '"' 0x22 and '#' 0x23, '(' 0x28 and ')' 0x29: one comparison per pair after |1 */
        const __m128i one = _mm_set1_epi8(1), qh = _mm_set1_epi8(0x23), pr = _mm_set1_epi8(0x29);
        while (q < le && end - q >= 16) {
            __m128i v = _mm_or_si128(_mm_loadu_si128((const __m128i *)q), one);
            unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, qh), _mm_cmpeq_epi8(v, pr)));
            if (m) {
                q += __builtin_ctz(m);
                return q < le ? q : le;
            }
            q += 16;
        }
        if (q >= le) return le;
    }
#else
    (void)end;
    (void)vector;
#endif
    while (q < le && !special_noid[*q]) q++;
    return q;
}

#if CUT_SSE2
/* 64 bytes from p (zeros after end: none of the bytes looked for) */
static inline void load64(const unsigned char *p, const unsigned char *end, __m128i v[4]) {
    if (end - p >= 64) {
        for (int k = 0; k < 4; k++) v[k] = _mm_loadu_si128((const __m128i *)(p + 16 * k));
    } else {
        unsigned char tmp[64] = {0};
        memcpy(tmp, p, (size_t)(end - p));
        for (int k = 0; k < 4; k++) v[k] = _mm_loadu_si128((const __m128i *)(tmp + 16 * k));
    }
}

static inline uint64_t mask64(const __m128i v[4], __m128i c) {
    return (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[0], c)) |
           (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[1], c)) << 16 |
           (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[2], c)) << 32 |
           (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[3], c)) << 48;
}

/* the lines' block: '\n' and the bytes that are not ASCII, 64 bytes from base */
typedef struct {
    const unsigned char *base;
    uint64_t nl, hi;
} lineblk;

static inline void lineblk_at(lineblk *k, const unsigned char *p, const unsigned char *end) {
    __m128i v[4];
    load64(p, end, v);
    k->base = p;
    k->nl = mask64(v, _mm_set1_epi8('\n'));
    k->hi = (uint64_t)(unsigned)_mm_movemask_epi8(v[0]) | (uint64_t)(unsigned)_mm_movemask_epi8(v[1]) << 16 |
            (uint64_t)(unsigned)_mm_movemask_epi8(v[2]) << 32 | (uint64_t)(unsigned)_mm_movemask_epi8(v[3]) << 48;
}

/* memchr(p, '\n', end - p), p at or after the block's start; *ascii: whether the bytes from
 * p to the '\n' (to end without one) are all ASCII */
static inline const unsigned char *line_end(lineblk *k, const unsigned char *p, const unsigned char *end,
                                            int *ascii) {
    uint64_t hi = 0;
    if (p - k->base >= 64) lineblk_at(k, p, end);
    for (;;) {
        uint64_t keep = ~0ULL << (p - k->base);
        uint64_t nl = k->nl & keep;
        if (nl) {
            int at = __builtin_ctzll(nl);
            hi |= k->hi & keep & ((1ULL << at) - 1);
            *ascii = !hi;
            return k->base + at;
        }
        hi |= k->hi & keep;
        if (end - k->base <= 64) {
            *ascii = !hi;
            return NULL;
        }
        lineblk_at(k, k->base + 64, end);
        p = k->base;
    }
}

/* the bits set in x (without a call to libgcc where the build has no popcnt instruction) */
static inline int pop64(uint64_t x) {
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* pop64(x) where x has at most one bit set (a line's '(' or ')', mostly), without the sum */
static inline int pop_few(uint64_t x) {
    return (x & (x - 1)) ? pop64(x) : x != 0;
}

/* '(' ')' and '"' or '#' in the n bytes from p (n <= 64; bits from n on: 0); bytes up to
 * end may be read */
static inline void graph_masks(const unsigned char *p, const unsigned char *end, int n, uint64_t *op,
                               uint64_t *cl, uint64_t *qh) {
    const __m128i one = _mm_set1_epi8(1), o = _mm_set1_epi8('('), c = _mm_set1_epi8(')'),
                  h = _mm_set1_epi8(0x23);  /* '"' 0x22 and '#' 0x23 after |1 */
    uint64_t a = 0, b = 0, d = 0;
    int upto = n <= 32 ? 32 : 64;  /* (a count of loads the branch predictor can guess) */
    for (int k = 0; k < upto; k += 16) {
        __m128i v;
        if (end - p - k >= 16) {
            v = _mm_loadu_si128((const __m128i *)(p + k));
        } else {
            unsigned char tmp[16] = {0};
            if (end - p > k) memcpy(tmp, p + k, (size_t)(end - p - k));
            v = _mm_loadu_si128((const __m128i *)tmp);
        }
        a |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, o)) << k;
        b |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, c)) << k;
        d |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(v, one), h)) << k;
    }
    uint64_t in = n == 64 ? ~0ULL : (1ULL << n) - 1;
    *op = a & in;
    *cl = b & in;
    *qh = d & in;
}
#endif

/* The lines of [*pp, end) as the reference's line loop reads them (same state, units and
 * status); *pp is left at the first line not read. */
static int scan_lines(int64_t *st, const unsigned char *buf, const unsigned char **pp, const unsigned char *end,
                      int64_t offset, int final, int graphs, obuf *o, int vector) {
    const unsigned char *p = *pp;
    const unsigned char *na = NULL;  /* (vector false) the next byte that is not ASCII */
    const unsigned char *idp = NULL;  /* the next "::id", looked for when a line needs it */
#if CUT_SSE2
    lineblk lb = {p, 0, 0};
    if (vector && p < end) lineblk_at(&lb, p, end);
#endif
    int status = 0;
    while (p < end && status == 0) {
        const unsigned char *ls = p, *le;
        int ascii;
#if CUT_SSE2
        if (vector) {
            le = line_end(&lb, p, end, &ascii);
        } else
#endif
        {
            le = memchr(p, '\n', (size_t)(end - p));
            if (!na || na < ls) na = find_nonascii(ls, end, 0);
            ascii = na >= (le ? le : end);
        }
        const unsigned char *next = le ? le + 1 : end;
        if (!le) {
            if (!final) break;  /* an unfinished line: the caller gives whole lines */
            le = end;
        }
        int64_t at = offset + (ls - buf);
        int hasid = -1;  /* has_id(ls, le), when needed */
#define HASID() (hasid >= 0 ? hasid : (hasid = line_has_id(&idp, ls, le, end, vector)))
        if (!ascii && !utf8_valid(ls, le)) { status = 1; break; }
        /* blank? first character after spaces and tabs? */
        const unsigned char *q0 = skip_indent(ls, le);
        int blank, have_first = q0 < le;
        uint32_t first = 0;
        if (!have_first) {
            blank = 1;
        } else if (*q0 < 0x80 && !ascii_space[*q0]) {
            first = *q0;
            blank = 0;
        } else {  /* whitespace other than spaces and tabs, or not ASCII: code points */
            const unsigned char *q = q0;
            uint32_t c = 0;
            int n = utf8_len(q, le, &c);
            first = c;
            blank = 1;
            while (q < le) {
                n = utf8_len(q, le, &c);
                if (!(c < 0x80 ? ascii_space[c] : is_space(c))) { blank = 0; break; }
                q += n;
            }
        }
        if (blank) {
            int r = end_block(st, at, o);
            if (r < 0) return -1;
            if (r > 0) { status = r; break; }
        } else {
            int content = first != '#' && !(first < 0x80 ? ascii_space[first] : is_space(first));
            int comment = first == '#';
            if (!st[S_INBLOCK]) {
                st[S_INBLOCK] = 1;
                st[S_USTART] = at; st[S_ULINE] = st[S_LINE]; st[S_CONTENT] = 0;
                st[S_DEPTH] = 0; st[S_DONE] = 0; st[S_NOCUT] = !graphs; st[S_PEND] = -1;
                st[S_UNITS] = 1; st[S_U0ID] = 0; st[S_LATERID] = 0; st[S_BAD] = 0;
                st[S_PENDID] = 0; st[S_PENDBAD] = 0;
            }
            if (!st[S_NOCUT]) {
                const unsigned char *q = q0;
                if (comment) {
                    int id = HASID() ? id_clean_fast(q, le, end, vector) : 0;
                    if (st[S_DEPTH] > 0) {
                        st[S_NOCUT] = 1;
                        if (id) st[S_BAD] = 1;
                    } else if (st[S_DONE]) {  /* after a graph: the next one's, or trailing */
                        if (st[S_PEND] < 0) { st[S_PEND] = at; st[S_PENDLINE] = st[S_LINE]; }
                        if (id) st[S_PENDID] = 1;
                        if (id < 0) st[S_PENDBAD] = 1;
                    } else if (id) {  /* before the unit's graph */
                        if (id < 0) st[S_BAD] = 1;
                        if (st[S_UNITS] == 1) st[S_U0ID] = 1; else st[S_LATERID] = 1;
                    }
                } else if (first == '(' || st[S_DEPTH] > 0) {
                    int64_t depth = st[S_DEPTH];
                    int idseen = 0;  /* an ::id among the graph text of the line */
#if CUT_SSE2
                    /* a line of at most 64 bytes from its first character: its '(' ')'
                     * '"' '#' as bits, found once */
                    const unsigned char *base = q;
                    uint64_t op = 0, cl = 0, qh = 0;
                    int fit = vector && le - q <= 64 && !HASID();
                    if (fit) graph_masks(q, end, (int)(le - q), &op, &cl, &qh);
#endif
                    while (q < le && !st[S_NOCUT]) {
                        if (depth == 0 && st[S_DONE]) {  /* the next graph: cut */
                            int64_t cut = st[S_PEND] >= 0 ? st[S_PEND] : offset + (q - buf);
                            int64_t cutline = st[S_PEND] >= 0 ? st[S_PENDLINE] : st[S_LINE];
                            if (push(o, st[S_USTART], cut, st[S_ULINE]) < 0) return -1;
                            st[S_USTART] = cut; st[S_ULINE] = cutline; st[S_CONTENT] = 1;
                            st[S_UNITS]++;
                            if (st[S_PENDID]) st[S_LATERID] = 1;
                            if (st[S_PENDBAD]) st[S_BAD] = 1;
                            st[S_PEND] = -1; st[S_PENDID] = 0; st[S_PENDBAD] = 0; st[S_DONE] = 0;
                            if (st[S_BAD] || (!st[S_U0ID] && st[S_LATERID])) { status = 2; break; }
                        }
                        if (HASID()) {  /* the reference's loop: a colon may start an ::id */
                            for (; q < le; q++) {
                                unsigned char c = *q;
                                if (!special[c]) continue;
                                if (c == ':') {
                                    if (le - q >= 4 && q[1] == ':' && q[2] == 'i' && q[3] == 'd') idseen = 1;
                                } else if (c == '"') {
                                    for (q++; q < le && *q != '"'; q++) {
                                        if (*q == '\\') q++;
                                        else if (*q == ':' && le - q >= 4 && q[1] == ':' && q[2] == 'i' && q[3] == 'd')
                                            idseen = 1;
                                    }
                                    if (q >= le) { st[S_NOCUT] = 1; break; }
                                } else if (c == '#') {
                                    st[S_NOCUT] = 1;
                                    break;
                                } else if (c == '(') {
                                    depth++;
                                } else if (c == ')') {
                                    if (--depth <= 0) break;
                                }
                            }
                        } else {  /* no ::id on the line: '"', '#', '(' and ')' only */
                            for (;;) {
#if CUT_SSE2
                                if (fit) {  /* the rest of the line is in the masks */
                                    if (q >= le) break;
                                    uint64_t rest = ~0ULL << (q - base);
                                    int closes = pop_few(cl & rest);
                                    if (!(qh & rest) && depth > closes) {
                                        /* no string, no comment, and too few ')' to close
                                         * the graph: each '(' and ')' changes the depth */
                                        depth += pop_few(op & rest) - closes;
                                        q = le;
                                        break;
                                    }
                                    uint64_t m = (op | cl | qh) & rest;
                                    q = m ? base + __builtin_ctzll(m) : le;
                                } else
#endif
                                    q = next_special(q, le, end, vector);
                                if (q >= le) break;
                                unsigned char c = *q;
                                if (c == '(') {
                                    depth++;
                                } else if (c == ')') {
                                    if (--depth <= 0) break;
                                } else if (c == '"') {
                                    for (q++; q < le && *q != '"'; q++)
                                        if (*q == '\\') q++;
                                    if (q >= le) { st[S_NOCUT] = 1; break; }
                                } else {  /* '#' */
                                    st[S_NOCUT] = 1;
                                    break;
                                }
                                q++;
                            }
                        }
                        if (st[S_NOCUT] || q >= le) break;
                        if (depth < 0) { st[S_NOCUT] = 1; break; }
                        /* the graph closed at q: what follows on its line? */
                        st[S_DONE] = 1;
                        for (q++; q < le;) {
                            if (*q < 0x80) {
                                if (!ascii_space[*q]) break;
                                q++;
                                continue;
                            }
                            uint32_t cp = 0;
                            int n = utf8_len(q, le, &cp);
                            if (!is_space(cp)) break;
                            q += n;
                        }
                        if (q >= le) break;
                        if (*q == '#') {  /* a comment: the next graph's metadata, or trailing */
                            int id = HASID() ? id_clean_fast(q, le, end, vector) : 0;
                            st[S_PEND] = offset + (q - buf); st[S_PENDLINE] = st[S_LINE];
                            if (id) st[S_PENDID] = 1;
                            if (id < 0) st[S_PENDBAD] = 1;
                            break;
                        }
                        if (*q != '(') st[S_NOCUT] = 1;  /* other text after the graph */
                    }
                    if (status) break;
                    st[S_DEPTH] = depth;
                    if (st[S_NOCUT] && HASID()) idseen = 1;  /* the line was not read to its end */
                    if (idseen) st[S_BAD] = 1;  /* an ::id among a graph's lines */
                } else {
                    st[S_NOCUT] = 1;  /* text that is neither a graph nor a comment */
                }
                if (st[S_NOCUT]) {  /* the rest of the block stays in this unit */
                    if (st[S_PEND] >= 0) {
                        if (st[S_PENDID] || st[S_PENDBAD]) st[S_BAD] = 1;
                        st[S_PEND] = -1;
                    }
                }
            } else if (graphs && st[S_UNITS] >= 2 && HASID()) {
                st[S_BAD] = 1;  /* an ::id in the uncut rest of a cut block */
            }
            st[S_CONTENT] |= content;
        }
        st[S_LINE]++;
        p = next;
    }
#undef HASID
    *pp = p;
    return status;
}

/* Blocks only, a piece that is all ASCII: the reference's tight loop, each line read once. */
static int scan_blocks_ascii(int64_t *st, const unsigned char *buf, const unsigned char **pp,
                             const unsigned char *end, int64_t offset, int final, obuf *o) {
    const unsigned char *p = *pp;
    int64_t line = st[S_LINE];
    while (p < end) {
        const unsigned char *ls = p, *q = skip_indent(p, end);
        const unsigned char *le = q < end ? memchr(q, '\n', (size_t)(end - q)) : NULL;
        const unsigned char *next = le ? le + 1 : end;
        if (!le) {
            if (!final) break;  /* an unfinished line: the caller gives whole lines */
            le = end;
        }
        int64_t at = offset + (ls - buf);
        unsigned char first = q < le ? *q : '\n';
        if (ascii_space[first]) {   /* blank unless a character that is not whitespace follows */
            while (q < le && ascii_space[*q]) q++;
        }
        if (q == le) {   /* blank: the end of a block (end_block without graphs) */
            if (st[S_INBLOCK]) {
                if (st[S_CONTENT] && push(o, st[S_USTART], at, st[S_ULINE]) < 0) return -1;
                st[S_INBLOCK] = 0;
            }
        } else {
            if (!st[S_INBLOCK]) {
                st[S_INBLOCK] = 1;
                st[S_USTART] = at; st[S_ULINE] = line; st[S_CONTENT] = 0;
                st[S_DEPTH] = 0; st[S_DONE] = 0; st[S_NOCUT] = 1; st[S_PEND] = -1;
                st[S_UNITS] = 1; st[S_U0ID] = 0; st[S_LATERID] = 0; st[S_BAD] = 0;
                st[S_PENDID] = 0; st[S_PENDBAD] = 0;
            }
            if (first != '#' && !ascii_space[first]) st[S_CONTENT] = 1;
        }
        line++;
        p = next;
    }
    st[S_LINE] = line;
    *pp = p;
    return 0;
}

static PyObject *p_scan(PyObject *self, PyObject *args) {
    Py_buffer view;
    long long offset;
    PyObject *state;
    int final, graphs, vector = 1;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*LOpp|p", &view, &offset, &state, &final, &graphs, &vector)) return NULL;
    int64_t st[NSTATE];
    if (state == Py_None) {
        memset(st, 0, sizeof st);
        st[S_LINE] = 1;
        st[S_PEND] = -1;
        st[S_FIRST] = 1;
    } else {
        if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != NSTATE) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "scan: a state returned by scan() or None");
            return NULL;
        }
        for (int k = 0; k < NSTATE; k++) {
            st[k] = PyLong_AsLongLong(PyTuple_GET_ITEM(state, k));
            if (st[k] == -1 && PyErr_Occurred()) { PyBuffer_Release(&view); return NULL; }
        }
    }
    const unsigned char *buf = view.buf, *end = buf + view.len, *p = buf;
    obuf o = {NULL, 0, 0};
    int status = 0;
    PyThreadState *save = PyEval_SaveThread();  /* plain C on a buffer: other threads run */
    if (st[S_FIRST]) {
        st[S_FIRST] = 0;
        if (view.len >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF) p += 3;
    }
    int r;
    if (!graphs && find_nonascii(p, end, vector) == end)
        r = scan_blocks_ascii(st, buf, &p, end, offset, final, &o);
    else
        r = scan_lines(st, buf, &p, end, offset, final, graphs, &o, vector);
    if (r < 0) goto fail;
    status = r;
    if (status == 0 && final && p >= end) {
        r = end_block(st, offset + view.len, &o);
        if (r < 0) goto fail;
        if (r > 0) status = r;
    }
    PyEval_RestoreThread(save);
    PyBuffer_Release(&view);
    PyObject *units = PyBytes_FromStringAndSize((const char *)o.v, (Py_ssize_t)(o.n * (Py_ssize_t)sizeof(int64_t)));
    free(o.v);
    if (!units) return NULL;
    PyObject *nst = PyTuple_New(NSTATE);
    if (!nst) { Py_DECREF(units); return NULL; }
    for (int k = 0; k < NSTATE; k++) {
        PyObject *v = PyLong_FromLongLong(st[k]);
        if (!v) { Py_DECREF(units); Py_DECREF(nst); return NULL; }
        PyTuple_SET_ITEM(nst, k, v);
    }
    return Py_BuildValue("(NNi)", units, nst, status);
fail:
    PyEval_RestoreThread(save);
    PyBuffer_Release(&view);
    free(o.v);
    return PyErr_NoMemory();
}

static PyMethodDef methods[] = {
    {"scan", p_scan, METH_VARARGS,
     "scan(buf, offset, state, final, graphs, vector=True) -> (units, state, status): the units "
     "(int64 start, end, first line) of a piece of a PENMAN file; status 0 fine, 1 not UTF-8, 2 "
     "ids of a cut block not certain (vector false: the byte loops of builds without SSE2)"},
    {"scan_reference", p_scan_reference, METH_VARARGS,
     "scan_reference(buf, offset, state, final, graphs): scan() as it was first written, every "
     "line read byte by byte (the reference of the differential tests)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cut",
                                       "Graph boundaries of PENMAN bytes (no object per graph).", -1,
                                       methods};

PyMODINIT_FUNC PyInit__cut(void) { return PyModule_Create(&moduledef); }
