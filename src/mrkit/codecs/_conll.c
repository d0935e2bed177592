/* The compiled fast path of the CoNLL coreference reader (codecs/conll.py).
 *
 * scan(data: bytes, span: type) -> list | None
 *
 * Reads the documents of a column file held in memory, with exactly the rules of the
 * Python reader (which stays the reference, and the differential tests compare both):
 * '#begin document NAME' / '#end document', other '#' lines are comments, blank lines
 * are skipped, the last whitespace-separated field of a token line is its coreference
 * field: '(N)', '(N', 'N)', '(N+M)' (dropped), joined directly or by '|', '-', '_'.
 * One-token mentions first, then openings, then closings (popping the latest opening of
 * their entity); entities numbered in order of first appearance (by their digit string).
 *
 * Returns a list of (name, begin line, clusters, mention lines, repeats) per document,
 * mentions being span(first << 32 | last) objects; or None whenever the input is not the
 * plain case this scanner handles (any error, a '\r', a byte >= 0x80 or 0x1c-0x1f where
 * Python's notion of whitespace could differ, an entity id of more than 17 digits):
 * the Python reader then reads the file and says what is wrong.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    int64_t *start;
    Py_ssize_t n, cap;
} Stack;

typedef struct {
    char kind;      /* 's' one token, 'o' opening, 'c' closing */
    uint64_t key;   /* digit string as value * 32 + number of digits */
} Part;

static int ascii_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
/* bytes where Python's str whitespace (unicode, \x1c-\x1f) could differ from ascii_ws */
static int odd(unsigned char c) { return c >= 0x80 || (c >= 0x1c && c <= 0x1f); }

typedef struct {
    PyObject *name;
    long begin;
    PyObject *entities;  /* key (int) -> index (int) */
    PyObject *clusters;  /* list of lists of spans */
    PyObject *lines;     /* span -> line */
    int repeats;
    Stack *stacks;
    Py_ssize_t n_stacks, cap_stacks;
    int64_t token;
} Doc;

static void doc_clear(Doc *d) {
    Py_CLEAR(d->name);
    Py_CLEAR(d->entities);
    Py_CLEAR(d->clusters);
    Py_CLEAR(d->lines);
    for (Py_ssize_t i = 0; i < d->n_stacks; i++) PyMem_Free(d->stacks[i].start);
    PyMem_Free(d->stacks);
    d->stacks = NULL;
    d->n_stacks = d->cap_stacks = 0;
}

/* index of the entity with this key (created when new); -1 on a Python error */
static Py_ssize_t entity(Doc *d, uint64_t key) {
    PyObject *k = PyLong_FromUnsignedLongLong(key);
    if (!k) return -1;
    PyObject *v = PyDict_GetItemWithError(d->entities, k);
    if (v) {
        Py_DECREF(k);
        return PyLong_AsSsize_t(v);
    }
    if (PyErr_Occurred()) { Py_DECREF(k); return -1; }
    Py_ssize_t i = PyList_GET_SIZE(d->clusters);
    PyObject *idx = PyLong_FromSsize_t(i);
    PyObject *lst = PyList_New(0);
    if (!idx || !lst || PyDict_SetItem(d->entities, k, idx) < 0 || PyList_Append(d->clusters, lst) < 0) {
        Py_XDECREF(idx); Py_XDECREF(lst); Py_DECREF(k);
        return -1;
    }
    Py_DECREF(idx); Py_DECREF(lst); Py_DECREF(k);
    if (d->n_stacks == d->cap_stacks) {
        Py_ssize_t cap = d->cap_stacks ? 2 * d->cap_stacks : 16;
        Stack *s = PyMem_Realloc(d->stacks, cap * sizeof(Stack));
        if (!s) { PyErr_NoMemory(); return -1; }
        d->stacks = s;
        d->cap_stacks = cap;
    }
    d->stacks[d->n_stacks].start = NULL;
    d->stacks[d->n_stacks].n = d->stacks[d->n_stacks].cap = 0;
    d->n_stacks++;
    return i;
}

static int add(Doc *d, Py_ssize_t ent, int64_t first, int64_t last, long lineno, PyObject *span_type) {
    PyObject *code = PyLong_FromLongLong((first << 32) | last);
    if (!code) return -1;
    PyObject *span = PyObject_CallOneArg(span_type, code);
    Py_DECREF(code);
    if (!span) return -1;
    if (PyList_Append(PyList_GET_ITEM(d->clusters, ent), span) < 0) { Py_DECREF(span); return -1; }
    int has = PyDict_Contains(d->lines, span);
    if (has < 0) { Py_DECREF(span); return -1; }
    if (has) {
        d->repeats = 1;
    } else {
        PyObject *ln = PyLong_FromLong(lineno);
        if (!ln || PyDict_SetItem(d->lines, span, ln) < 0) { Py_XDECREF(ln); Py_DECREF(span); return -1; }
        Py_DECREF(ln);
    }
    Py_DECREF(span);
    return 0;
}

static int push(Stack *s, int64_t start) {
    if (s->n == s->cap) {
        Py_ssize_t cap = s->cap ? 2 * s->cap : 4;
        int64_t *a = PyMem_Realloc(s->start, cap * sizeof(int64_t));
        if (!a) { PyErr_NoMemory(); return -1; }
        s->start = a;
        s->cap = cap;
    }
    s->start[s->n++] = start;
    return 0;
}

/* parse a coreference field; returns the number of parts, -1 if not readable here */
static Py_ssize_t parse_field(const unsigned char *f, Py_ssize_t n, Part **parts, Py_ssize_t *cap) {
    Py_ssize_t i = 0, np = 0;
    while (i < n) {
        unsigned char c = f[i];
        if (c == '|' || c == '-' || c == '_') { i++; continue; }
        int opening = c == '(';
        Py_ssize_t j = opening ? i + 1 : i, k = j;
        uint64_t value = 0;
        while (k < n && f[k] >= '0' && f[k] <= '9') {
            if (k - j >= 17) return -1;  /* value * 32 must fit 64 bits */
            value = value * 10 + (f[k] - '0');
            k++;
        }
        if (k == j) return -1;
        uint64_t key = value * 32 + (uint64_t)(k - j);
        char kind;
        if (opening && k < n && f[k] == '+') {  /* "(N+M)": dropped */
            Py_ssize_t m = k + 1;
            while (m < n && f[m] >= '0' && f[m] <= '9') m++;
            if (m == k + 1 || m >= n || f[m] != ')') return -1;
            i = m + 1;
            continue;
        } else if (k < n && f[k] == ')') {
            kind = opening ? 's' : 'c';
            i = k + 1;
        } else if (opening) {
            kind = 'o';
            i = k;
        } else {
            return -1;
        }
        if (np == *cap) {
            Py_ssize_t c2 = *cap * 2;
            Part *p = PyMem_Realloc(*parts, c2 * sizeof(Part));
            if (!p) return -2;
            *parts = p;
            *cap = c2;
        }
        (*parts)[np].kind = kind;
        (*parts)[np].key = key;
        np++;
    }
    return np;
}

static int starts_with(const unsigned char *p, const unsigned char *e, const char *lit) {
    size_t n = strlen(lit);
    return (size_t)(e - p) >= n && memcmp(p, lit, n) == 0;
}

static PyObject *scan(PyObject *self, PyObject *args) {
    Py_buffer buf;
    PyObject *span_type;
    if (!PyArg_ParseTuple(args, "y*O", &buf, &span_type)) return NULL;
    const unsigned char *data = buf.buf, *end = data + buf.len;
    PyObject *docs = PyList_New(0);
    Doc d;
    memset(&d, 0, sizeof d);
    int in_doc = 0, fallback = 0, failed = 0;
    Py_ssize_t cap_parts = 16;
    Part *parts = PyMem_Malloc(cap_parts * sizeof(Part));
    if (!docs || !parts) { failed = 1; if (!parts) PyErr_NoMemory(); goto done; }
    if (memchr(data, '\r', buf.len)) { fallback = 1; goto done; }
    long lineno = 0;
    const unsigned char *s = data;
    while (s < end) {
        const unsigned char *nl = memchr(s, '\n', end - s);
        const unsigned char *e = nl ? nl : end;
        lineno++;
        if (*s == '#') {
            const unsigned char *p = s + 1;
            while (p < e && ascii_ws(*p)) p++;
            if (p < e && odd(*p)) { fallback = 1; goto done; }
            if (starts_with(p, e, "begin document")) {
                if (in_doc) { fallback = 1; goto done; }
                const unsigned char *a = p + 14, *b = e;
                while (a < b && ascii_ws(*a)) a++;
                while (b > a && ascii_ws(b[-1])) b--;
                if ((a < b && (odd(*a) || odd(b[-1])))) { fallback = 1; goto done; }
                d.name = PyUnicode_DecodeUTF8((const char *)a, b - a, "strict");
                if (!d.name) { PyErr_Clear(); fallback = 1; goto done; }
                d.entities = PyDict_New();
                d.clusters = PyList_New(0);
                d.lines = PyDict_New();
                if (!d.entities || !d.clusters || !d.lines) { failed = 1; goto done; }
                d.begin = lineno;
                d.repeats = 0;
                d.token = 0;
                in_doc = 1;
            } else if (starts_with(p, e, "end document")) {
                if (!in_doc) { fallback = 1; goto done; }
                for (Py_ssize_t i = 0; i < d.n_stacks; i++)
                    if (d.stacks[i].n) { fallback = 1; goto done; }
                PyObject *t = Py_BuildValue("(OlOOO)", d.name, d.begin, d.clusters, d.lines,
                                            d.repeats ? Py_True : Py_False);
                if (!t || PyList_Append(docs, t) < 0) { Py_XDECREF(t); failed = 1; goto done; }
                Py_DECREF(t);
                doc_clear(&d);
                in_doc = 0;
            }
        } else {
            const unsigned char *q = e;
            while (q > s && ascii_ws(q[-1])) q--;
            if (q > s && odd(q[-1])) { fallback = 1; goto done; }
            if (q > s) {
                if (!in_doc) { fallback = 1; goto done; }
                const unsigned char *r = q;
                while (r > s && !ascii_ws(r[-1])) {
                    if (odd(r[-1])) { fallback = 1; goto done; }
                    r--;
                }
                Py_ssize_t n = q - r;
                if (!(n == 1 && (*r == '-' || *r == '_'))) {
                    Py_ssize_t np = parse_field(r, n, &parts, &cap_parts);
                    if (np == -2) { PyErr_NoMemory(); failed = 1; goto done; }
                    if (np < 0) { fallback = 1; goto done; }
                    int64_t tok = d.token;
                    for (Py_ssize_t i = 0; i < np; i++) {  /* one-token mentions */
                        if (parts[i].kind != 's') continue;
                        Py_ssize_t ent = entity(&d, parts[i].key);
                        if (ent < 0 || add(&d, ent, tok, tok, lineno, span_type) < 0) { failed = 1; goto done; }
                    }
                    for (Py_ssize_t i = 0; i < np; i++) {  /* openings */
                        if (parts[i].kind != 'o') continue;
                        Py_ssize_t ent = entity(&d, parts[i].key);
                        if (ent < 0 || push(&d.stacks[ent], tok) < 0) { failed = 1; goto done; }
                    }
                    for (Py_ssize_t i = 0; i < np; i++) {  /* closings */
                        if (parts[i].kind != 'c') continue;
                        Py_ssize_t ent = entity(&d, parts[i].key);
                        if (ent < 0) { failed = 1; goto done; }
                        Stack *st = &d.stacks[ent];
                        if (!st->n) { fallback = 1; goto done; }
                        int64_t start = st->start[--st->n];
                        if (add(&d, ent, start, tok, lineno, span_type) < 0) { failed = 1; goto done; }
                    }
                }
                d.token++;
            }
        }
        s = nl ? nl + 1 : end;
    }
    if (in_doc) fallback = 1;
done:
    doc_clear(&d);
    PyMem_Free(parts);
    PyBuffer_Release(&buf);
    if (failed) {
        Py_XDECREF(docs);
        return NULL;
    }
    if (fallback) {
        Py_XDECREF(docs);
        Py_RETURN_NONE;
    }
    return docs;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS, "Documents of a CoNLL coreference column file in memory, or None (read it in Python)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_conll", NULL, -1, methods};

PyMODINIT_FUNC PyInit__conll(void) { return PyModule_Create(&module); }
