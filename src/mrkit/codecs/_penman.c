/*
 * mrkit.codecs._penman: the compiled PENMAN reader (tokenizer + parser of one block).
 *
 *   parse_block(block, start) -> list of (first_line, (var, branches), metadata) | None
 *
 * It does exactly the work of penman.py's _tokens + _parse_trees on one blank-line
 * separated block of text that starts at line `start` of its file, and returns the same
 * nested tuples (the node is (var, [(role, target), ...]) with ("/", concept) first, a
 * target is a str or a node; a role, concept or constant followed by an alignment marker
 * is that text with the marker appended, as the Python parser does). A block without any
 * graph (comments only) gives [].
 *
 * Whenever the block is not read cleanly -- any token the Python tokenizer would call
 * UNEXPECTED, any grammar error -- the result is None and the caller runs the Python
 * parser on the block, so error messages stay the Python ones. Nothing here recurses:
 * the open nodes are an explicit, growing stack (nesting depth is data).
 *
 * Token classes, as penman.py's _TOKEN regex on each line of block.splitlines():
 *   COMMENT    '#' to the end of the line
 *   STRING     "..." with backslash escapes, on one line
 *   LPAREN ( RPAREN ) SLASH /
 *   ROLE       ':' then [^\s"()/:~]*
 *   SYMBOL     [^\s"()/:~]+
 *   ALIGNMENT  '~' ([a-z] '.'?)? [0-9]+ (',' [0-9]+)*
 * \s is Python's str whitespace (Py_UNICODE_ISSPACE), lines end at str.splitlines()
 * breaks (Py_UNICODE_ISLINEBREAK, "\r\n" counting once). Every line break is whitespace.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

/* the classes of mrkit.graph, given once by configure(); interned names */
static PyObject *GraphCls, *NodeCls, *EdgeCls, *PropertyCls;
static PyObject *s_id, *s_snt, *s_tok, *s_metadata, *s_source_file, *s_source_line, *s_extra,
    *s_auto_id, *s_text, *s_tops, *s_nodes, *s_edges, *s_label, *s_properties, *s_alignment,
    *s_property_alignments, *s_slash;

enum { T_END, T_COMMENT, T_STRING, T_LPAREN, T_RPAREN, T_SLASH, T_ROLE, T_SYMBOL, T_ALIGN, T_BAD };

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t len;
    Py_ssize_t pos;   /* next character to read */
    Py_ssize_t line;  /* line (1-based, within the block) of pos */
    /* the current token */
    int type;
    Py_ssize_t a, b;  /* text is [a, b) */
    Py_ssize_t tline;
} lexer;

#define CH(lx, i) PyUnicode_READ((lx)->kind, (lx)->data, (i))

static int is_name_char(Py_UCS4 c) {
    /* [^\s"()/:~] */
    if (c == '"' || c == '(' || c == ')' || c == '/' || c == ':' || c == '~') return 0;
    if (c < 128) return !(c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31));
    return !Py_UNICODE_ISSPACE(c);
}

static int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }

/* advance to the next token; whitespace (and line breaks) are skipped */
static void next_token(lexer *lx) {
    Py_ssize_t i = lx->pos, n = lx->len;
    for (;;) {
        if (i >= n) {
            lx->pos = i;
            lx->type = T_END;
            lx->a = lx->b = n;
            lx->tline = lx->line;
            return;
        }
        Py_UCS4 c = CH(lx, i);
        if (c == ' ' || c == '\t') {
            i++;
            continue;
        }
        if (Py_UNICODE_ISLINEBREAK(c)) {
            if (c == '\r' && i + 1 < n && CH(lx, i + 1) == '\n') i++;
            i++;
            lx->line++;
            continue;
        }
        if (Py_UNICODE_ISSPACE(c)) {
            i++;
            continue;
        }
        break;
    }
    Py_UCS4 c = CH(lx, i);
    lx->a = i;
    lx->tline = lx->line;
    if (c == '#') {
        Py_ssize_t j = i + 1;
        while (j < n && !Py_UNICODE_ISLINEBREAK(CH(lx, j))) j++;
        lx->type = T_COMMENT;
        lx->b = j;
    } else if (c == '"') {
        Py_ssize_t j = i + 1;
        int ok = 0;
        while (j < n) {
            Py_UCS4 d = CH(lx, j);
            if (Py_UNICODE_ISLINEBREAK(d)) break;
            if (d == '"') {
                ok = 1;
                j++;
                break;
            }
            if (d == '\\') {
                if (j + 1 >= n || Py_UNICODE_ISLINEBREAK(CH(lx, j + 1))) break;
                j += 2;
                continue;
            }
            j++;
        }
        if (ok) {
            lx->type = T_STRING;
            lx->b = j;
        } else {
            lx->type = T_BAD;
            lx->b = i + 1;
        }
    } else if (c == '(') {
        lx->type = T_LPAREN;
        lx->b = i + 1;
    } else if (c == ')') {
        lx->type = T_RPAREN;
        lx->b = i + 1;
    } else if (c == '/') {
        lx->type = T_SLASH;
        lx->b = i + 1;
    } else if (c == ':') {
        Py_ssize_t j = i + 1;
        while (j < n && is_name_char(CH(lx, j))) j++;
        lx->type = T_ROLE;
        lx->b = j;
    } else if (c == '~') {
        Py_ssize_t j = i + 1, d = -1;
        if (j < n && CH(lx, j) >= 'a' && CH(lx, j) <= 'z') {
            Py_ssize_t k = j + 1;
            if (k + 1 < n && CH(lx, k) == '.' && is_digit(CH(lx, k + 1)))
                d = k + 1;
            else if (k < n && is_digit(CH(lx, k)))
                d = k;
        } else if (j < n && is_digit(CH(lx, j))) {
            d = j;
        }
        if (d < 0) {
            lx->type = T_BAD;
            lx->b = i + 1;
        } else {
            Py_ssize_t k = d;
            while (k < n && is_digit(CH(lx, k))) k++;
            while (k + 1 < n && CH(lx, k) == ',' && is_digit(CH(lx, k + 1))) {
                k++;
                while (k < n && is_digit(CH(lx, k))) k++;
            }
            lx->type = T_ALIGN;
            lx->b = k;
        }
    } else if (is_name_char(c)) {
        Py_ssize_t j = i + 1;
        while (j < n && is_name_char(CH(lx, j))) j++;
        lx->type = T_SYMBOL;
        lx->b = j;
    } else {
        lx->type = T_BAD;
        lx->b = i + 1;
    }
    lx->pos = lx->b;
}

/* ------------------------------------------------------------------ building */

/* Short texts (variables, roles, concepts, constants) repeat within and across graphs: a
 * small fixed-size table of recent ones (bounded memory, entries replaced on collision)
 * gives the same str object again, saving allocations and speeding later dict lookups. */
#define CACHE_SIZE 4096
#define CACHE_MAX_LEN 32
static PyObject *cache[CACHE_SIZE];

static PyObject *cached_substring(PyObject *block, Py_ssize_t a, Py_ssize_t b) {
    Py_ssize_t n = b - a;
    if (n <= 0 || n > CACHE_MAX_LEN) return PyUnicode_Substring(block, a, b);
    int kind = PyUnicode_KIND(block);
    const void *data = PyUnicode_DATA(block);
    size_t h = 1469598103934665603ULL;
    for (Py_ssize_t i = a; i < b; i++) h = (h ^ (size_t)PyUnicode_READ(kind, data, i)) * 1099511628211ULL;
    h ^= (size_t)n;
    PyObject **slot = &cache[(h ^ (h >> 17)) & (CACHE_SIZE - 1)];
    PyObject *hit = *slot;
    if (hit && PyUnicode_GET_LENGTH(hit) == n && PyUnicode_KIND(hit) == kind &&
        memcmp(PyUnicode_DATA(hit), (const char *)data + a * kind, (size_t)(n * kind)) == 0) {
        Py_INCREF(hit);
        return hit;
    }
    PyObject *res = PyUnicode_Substring(block, a, b);
    /* only canonical (same-kind) results are kept, so the memcmp above is exact */
    if (res && PyUnicode_KIND(res) == kind) {
        Py_INCREF(res);
        Py_XSETREF(*slot, res);
    }
    return res;
}

static PyObject *substring(PyObject *block, const lexer *lx, Py_ssize_t a, Py_ssize_t b) {
    (void)lx;
    return cached_substring(block, a, b);
}

/* text of [a, b), with the alignment marker that follows (if the next token is one)
 * appended; the lexer is left after the last token used. NULL on memory errors. */
static PyObject *text_with_alignment(PyObject *block, lexer *lx) {
    Py_ssize_t a = lx->a, b = lx->b;
    next_token(lx);
    if (lx->type != T_ALIGN) return substring(block, lx, a, b);
    PyObject *res;
    if (lx->a == b) {
        res = substring(block, lx, a, lx->b);
    } else {
        PyObject *left = PyUnicode_Substring(block, a, b);
        if (!left) return NULL;
        PyObject *right = PyUnicode_Substring(block, lx->a, lx->b);
        if (!right) {
            Py_DECREF(left);
            return NULL;
        }
        res = PyUnicode_Concat(left, right);
        Py_DECREF(left);
        Py_DECREF(right);
    }
    next_token(lx);
    return res;
}

/* the metadata of one comment token [a, b): split at every '::' from the right, as
 *   comment, found, meta = comment.rpartition("::"); key, _, value = meta.partition(" ")
 * and metadata[key] = value.rstrip() */
static int add_metadata(PyObject *block, lexer *lx, Py_ssize_t a, Py_ssize_t end, PyObject *meta) {
    for (;;) {
        Py_ssize_t i = end - 2;
        while (i >= a && !(CH(lx, i) == ':' && CH(lx, i + 1) == ':')) i--;
        if (i < a) return 0;
        Py_ssize_t ks = i + 2, ke = ks;
        while (ke < end && CH(lx, ke) != ' ') ke++;
        Py_ssize_t vs = ke < end ? ke + 1 : end, ve = end;
        while (ve > vs && Py_UNICODE_ISSPACE(CH(lx, ve - 1))) ve--;
        PyObject *key = PyUnicode_Substring(block, ks, ke);
        if (!key) return -1;
        PyObject *value = PyUnicode_Substring(block, vs, ve);
        if (!value) {
            Py_DECREF(key);
            return -1;
        }
        int r = PyDict_SetItem(meta, key, value);
        Py_DECREF(key);
        Py_DECREF(value);
        if (r < 0) return -1;
        end = i;
    }
}

typedef struct {
    PyObject *var;      /* owned */
    PyObject *branches; /* owned list */
    PyObject *role;     /* owned: the role whose value this node is (NULL for the root) */
} frame;

typedef struct {
    frame *f;
    Py_ssize_t n, cap;
} fstack;

static void fstack_clear(fstack *s) {
    for (Py_ssize_t k = 0; k < s->n; k++) {
        Py_XDECREF(s->f[k].var);
        Py_XDECREF(s->f[k].branches);
        Py_XDECREF(s->f[k].role);
    }
    s->n = 0;
}

/* FAIL: not readable here (the Python parser decides); ERR: a Python error is set */
enum { OK = 0, FAIL = 1, ERR = -1 };

/* lexer at '(': read '(' var '/' concept [alignment] and push the node; `role` (stolen,
 * may be NULL) is the role of the parent it is the value of */
static int open_node(PyObject *block, lexer *lx, fstack *s, PyObject *role) {
    next_token(lx);
    if (lx->type != T_SYMBOL) {
        Py_XDECREF(role);
        return FAIL;
    }
    Py_ssize_t va = lx->a, vb = lx->b;
    next_token(lx);
    if (lx->type != T_SLASH) {
        Py_XDECREF(role);
        return FAIL;
    }
    next_token(lx);
    if (lx->type != T_SYMBOL && lx->type != T_STRING) {
        Py_XDECREF(role);
        return FAIL;
    }
    if (s->n == s->cap) {
        Py_ssize_t cap = s->cap ? s->cap * 2 : 16;
        frame *f = realloc(s->f, (size_t)cap * sizeof(frame));
        if (!f) {
            Py_XDECREF(role);
            PyErr_NoMemory();
            return ERR;
        }
        s->f = f;
        s->cap = cap;
    }
    frame *fr = &s->f[s->n];
    fr->role = role;
    fr->var = NULL;
    fr->branches = NULL;
    s->n++; /* owned from here on (cleared by fstack_clear) */
    PyObject *concept = text_with_alignment(block, lx);
    if (!concept) return ERR;
    PyObject *br = PyTuple_New(2);
    if (!br) {
        Py_DECREF(concept);
        return ERR;
    }
    Py_INCREF(s_slash);
    PyTuple_SET_ITEM(br, 0, s_slash);
    PyTuple_SET_ITEM(br, 1, concept);
    fr->branches = PyList_New(1);
    if (!fr->branches) {
        Py_DECREF(br);
        return ERR;
    }
    PyList_SET_ITEM(fr->branches, 0, br);
    fr->var = substring(block, lx, va, vb);
    if (!fr->var) return ERR;
    return OK;
}

/* append (role, target) to list, stealing both */
static int append_pair(PyObject *list, PyObject *role, PyObject *target) {
    PyObject *t = PyTuple_New(2);
    if (!t) {
        Py_DECREF(role);
        Py_DECREF(target);
        return -1;
    }
    PyTuple_SET_ITEM(t, 0, role);
    PyTuple_SET_ITEM(t, 1, target);
    int r = PyList_Append(list, t);
    Py_DECREF(t);
    return r;
}

static int parse(PyObject *block, Py_ssize_t start, PyObject *trees, fstack *s) {
    lexer lx;
    lx.kind = PyUnicode_KIND(block);
    lx.data = PyUnicode_DATA(block);
    lx.len = PyUnicode_GET_LENGTH(block);
    lx.pos = 0;
    lx.line = 1;
    next_token(&lx);
    while (lx.type != T_END) {
        PyObject *meta = PyDict_New();
        if (!meta) return ERR;
        Py_ssize_t first_line = start + lx.tline - 1;
        while (lx.type == T_COMMENT) {
            if (add_metadata(block, &lx, lx.a, lx.b, meta) < 0) {
                Py_DECREF(meta);
                return ERR;
            }
            next_token(&lx);
        }
        if (lx.type == T_END) {
            Py_DECREF(meta);
            break; /* comments after the last graph */
        }
        if (lx.type != T_LPAREN) {
            Py_DECREF(meta);
            return FAIL;
        }
        int r = open_node(block, &lx, s, NULL);
        if (r != OK) {
            Py_DECREF(meta);
            return r;
        }
        PyObject *root = NULL;
        while (s->n) {
            frame *top = &s->f[s->n - 1];
            if (lx.type == T_RPAREN) {
                next_token(&lx);
                PyObject *node = PyTuple_New(2);
                if (!node) {
                    r = ERR;
                    break;
                }
                PyTuple_SET_ITEM(node, 0, top->var);
                PyTuple_SET_ITEM(node, 1, top->branches);
                PyObject *role = top->role;
                top->var = top->branches = top->role = NULL;
                s->n--;
                if (s->n) {
                    if (append_pair(s->f[s->n - 1].branches, role, node) < 0) {
                        r = ERR;
                        break;
                    }
                } else {
                    root = node;
                }
                continue;
            }
            if (lx.type != T_ROLE || lx.b - lx.a < 2) {
                r = FAIL;
                break;
            }
            PyObject *role = text_with_alignment(block, &lx);
            if (!role) {
                r = ERR;
                break;
            }
            if (lx.type == T_SYMBOL || lx.type == T_STRING) {
                PyObject *target = text_with_alignment(block, &lx);
                if (!target) {
                    Py_DECREF(role);
                    r = ERR;
                    break;
                }
                if (append_pair(top->branches, role, target) < 0) {
                    r = ERR;
                    break;
                }
            } else if (lx.type == T_LPAREN) {
                r = open_node(block, &lx, s, role);
                if (r != OK) break;
            } else {
                Py_DECREF(role);
                r = FAIL;
                break;
            }
        }
        if (r != OK) {
            Py_DECREF(meta);
            return r;
        }
        PyObject *item = Py_BuildValue("(nNN)", first_line, root, meta);
        if (!item) return ERR;
        int ar = PyList_Append(trees, item);
        Py_DECREF(item);
        if (ar < 0) return ERR;
    }
    return OK;
}

/* ------------------------------------------------------------------ graphs */

/* read_block does what penman.py's _tree_to_graph does with each tree parse() returns,
 * building mrkit.graph objects directly; anything Python would report (a variable
 * defined twice, an alignment index of more than 9 digits) is FAIL. */


/* split a trailing alignment marker off s, as _split_alignment does with
 * ~(?:[a-zA-Z]+\.?)?(\d+(?:,\d+)*)$ : *text (new ref) and *align (new list or NULL).
 * FAIL when an index has more than 9 digits (Python reports it) or when the tail is
 * something this function does not decide (non-ASCII after the last '~'). */
static int split_alignment(PyObject *s, PyObject **text, PyObject **align) {
    *text = NULL;
    *align = NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    Py_ssize_t t = PyUnicode_FindChar(s, '~', 0, n, -1);
    if (t == -2) return ERR;
    if (t < 0) {
        Py_INCREF(s);
        *text = s;
        return OK;
    }
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    for (Py_ssize_t k = t + 1; k < n; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        if (c >= 128 || c == '\n') return FAIL;
    }
    Py_ssize_t j = t + 1;
#define C(i) PyUnicode_READ(kind, data, (i))
#define ALPHA(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z'))
    if (j < n && ALPHA(C(j))) {
        while (j < n && ALPHA(C(j))) j++;
        if (j < n && C(j) == '.') j++;
    }
    /* digits (, digits)* to the end */
    Py_ssize_t d = j;
    int ok = d < n;
    for (Py_ssize_t k = d; ok && k < n;) {
        Py_ssize_t g = k;
        while (k < n && is_digit(C(k))) k++;
        if (k == g) ok = 0;
        else if (k < n) {
            if (C(k) == ',' && k + 1 < n) k++;
            else ok = 0;
        }
    }
    if (!ok) {
        Py_INCREF(s);
        *text = s;
        return OK;
    }
    PyObject *list = PyList_New(0);
    if (!list) return ERR;
    for (Py_ssize_t k = d; k < n;) {
        Py_ssize_t g = k;
        long v = 0;
        while (k < n && is_digit(C(k))) {
            v = v * 10 + (long)(C(k) - '0');
            k++;
            if (k - g > 9) {
                Py_DECREF(list);
                return FAIL;
            }
        }
        PyObject *num = PyLong_FromLong(v);
        if (!num || PyList_Append(list, num) < 0) {
            Py_XDECREF(num);
            Py_DECREF(list);
            return ERR;
        }
        Py_DECREF(num);
        k++; /* the comma */
    }
#undef C
#undef ALPHA
    *text = PyUnicode_Substring(s, 0, t);
    if (!*text) {
        Py_DECREF(list);
        return ERR;
    }
    *align = list;
    return OK;
}

/* _unquote: "..." without the quotes and with \x -> x; *quoted set */
static PyObject *unquote(PyObject *s, int *quoted) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    *quoted = 0;
    if (n < 2 || PyUnicode_READ(kind, data, 0) != '"' || PyUnicode_READ(kind, data, n - 1) != '"') {
        Py_INCREF(s);
        return s;
    }
    *quoted = 1;
    if (PyUnicode_FindChar(s, '\\', 1, n - 1, 1) < 0) return PyUnicode_Substring(s, 1, n - 1);
    Py_UCS4 *buf = PyMem_Malloc((size_t)n * sizeof(Py_UCS4));
    if (!buf) return PyErr_NoMemory();
    Py_ssize_t m = 0;
    for (Py_ssize_t k = 1; k < n - 1; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        if (c == '\\' && k + 1 < n - 1) c = PyUnicode_READ(kind, data, ++k);
        buf[m++] = c;
    }
    PyObject *res = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, m);
    PyMem_Free(buf);
    return res;
}

/* set obj.extra[key] = value (value stolen) */
static int set_extra(PyObject *obj, PyObject *key, PyObject *value) {
    PyObject *extra = PyObject_GetAttr(obj, s_extra);
    if (!extra) {
        Py_DECREF(value);
        return -1;
    }
    int r = PyDict_SetItem(extra, key, value);
    Py_DECREF(extra);
    Py_DECREF(value);
    return r;
}

/* Append Edge(source, target, role) to edges and put its alignment (when not NULL) in
 * its extra; steals role and ralign.  0, or -1 with an exception set. */
static int append_edge(PyObject *edges, PyObject *source, PyObject *target, PyObject *role,
                       PyObject *ralign) {
    PyObject *e = PyObject_CallFunctionObjArgs(EdgeCls, source, target, role, NULL);
    Py_DECREF(role);
    if (!e || PyList_Append(edges, e) < 0) {
        Py_XDECREF(e);
        Py_XDECREF(ralign);
        return -1;
    }
    Py_DECREF(e); /* the list holds it */
    return ralign ? set_extra(e, s_alignment, ralign) : 0;
}

typedef struct {
    PyObject *branches; /* borrowed (kept alive by the tree) */
    Py_ssize_t i;
    PyObject *var;      /* borrowed */
    PyObject *node;     /* owned Node */
    PyObject *props;    /* owned list */
    PyObject *palign;   /* owned dict or NULL */
} gframe;

/* Node(var, label, properties) of a tree node, whose first branch is its concept (as
 * parse() builds it); the properties list is filled while the node is open.
 * OK, FAIL (alignment Python reports) or ERR. */
static int new_gframe(gframe *f, PyObject *tree_node, PyObject *nodes) {
    f->var = PyTuple_GET_ITEM(tree_node, 0);
    f->branches = PyTuple_GET_ITEM(tree_node, 1);
    f->i = 1;
    f->palign = NULL;
    f->node = NULL;
    f->props = PyList_New(0);
    if (!f->props) return ERR;
    PyObject *label, *align;
    int r = split_alignment(PyTuple_GET_ITEM(PyList_GET_ITEM(f->branches, 0), 1), &label, &align);
    if (r != OK) return r;
    PyObject *args[3] = {f->var, label, f->props};
    f->node = PyObject_Vectorcall(NodeCls, args, 3, NULL);
    Py_DECREF(label);
    if (!f->node || PyDict_SetItem(nodes, f->var, f->node) < 0) {
        Py_XDECREF(align);
        return ERR;
    }
    if (align && set_extra(f->node, s_alignment, align) < 0) return ERR;
    return OK;
}

static void gframe_clear(gframe *f) {
    Py_XDECREF(f->node);
    Py_XDECREF(f->props);
    Py_XDECREF(f->palign);
    f->node = f->props = f->palign = NULL;
}

/* one graph from (line, root, meta) as _tree_to_graph(tree, index, file, line) builds it;
 * *out is set on OK */
static int build_graph(PyObject *root, PyObject *meta, Py_ssize_t index, PyObject *file,
                       Py_ssize_t line, PyObject **out) {
    *out = NULL;
    int r = OK;
    PyObject *g = NULL, *variables = NULL, *nodes = NULL, *edges = NULL, *gid = NULL;
    gframe *st = NULL;
    Py_ssize_t sn = 0, scap = 0;

    /* every variable of the tree; one defined twice is an error (Python reports it) */
    variables = PySet_New(NULL);
    if (!variables) goto error;
    {
        PyObject **todo = NULL;
        Py_ssize_t tn = 0, tcap = 0;
        int bad = 0;
        PyObject *cur = root;
        for (;;) {
            PyObject *var = PyTuple_GET_ITEM(cur, 0);
            int has = PySet_Contains(variables, var);
            if (has != 0 || PySet_Add(variables, var) < 0) {
                bad = has > 0 ? FAIL : ERR;
                break;
            }
            PyObject *br = PyTuple_GET_ITEM(cur, 1);
            for (Py_ssize_t k = 0, m = PyList_GET_SIZE(br); k < m; k++) {
                PyObject *target = PyTuple_GET_ITEM(PyList_GET_ITEM(br, k), 1);
                if (!PyTuple_Check(target)) continue;
                if (tn == tcap) {
                    Py_ssize_t cap = tcap ? tcap * 2 : 16;
                    PyObject **t2 = realloc(todo, (size_t)cap * sizeof(PyObject *));
                    if (!t2) {
                        PyErr_NoMemory();
                        bad = ERR;
                        break;
                    }
                    todo = t2;
                    tcap = cap;
                }
                todo[tn++] = target;
            }
            if (bad || !tn) break;
            cur = todo[--tn];
        }
        free(todo);
        if (bad) {
            r = bad;
            goto error;
        }
    }

    gid = PyDict_GetItemWithError(meta, s_id);
    if (gid) Py_INCREF(gid);
    else if (PyErr_Occurred()) goto error;
    else if (!(gid = PyUnicode_FromFormat("%zd", index))) goto error;
    {
        PyObject *args = PyTuple_New(0);
        if (!args) goto error;
        PyObject *kw = Py_BuildValue("{OOOOOOOn}", s_id, gid, s_metadata, meta, s_source_file, file,
                                     s_source_line, line);
        if (!kw) {
            Py_DECREF(args);
            goto error;
        }
        g = PyObject_Call(GraphCls, args, kw);
        Py_DECREF(args);
        Py_DECREF(kw);
        if (!g) goto error;
    }
    {
        int has = PyDict_Contains(meta, s_id);
        if (has < 0) goto error;
        if (!has) {
            Py_INCREF(Py_True);
            if (set_extra(g, s_auto_id, Py_True) < 0) goto error;
        }
        PyObject *text = PyDict_GetItemWithError(meta, s_snt);
        if (!text && PyErr_Occurred()) goto error;
        if (!text || !PyObject_IsTrue(text)) {
            text = PyDict_GetItemWithError(meta, s_tok);
            if (!text && PyErr_Occurred()) goto error;
        }
        if (PyObject_SetAttr(g, s_text, text ? text : Py_None) < 0) goto error;
    }
    nodes = PyObject_GetAttr(g, s_nodes);
    if (!nodes) goto error;
    edges = PyObject_GetAttr(g, s_edges);
    if (!edges) goto error;

    scap = 16;
    st = malloc((size_t)scap * sizeof(gframe));
    if (!st) {
        PyErr_NoMemory();
        goto error;
    }
    sn = 1;
    if ((r = new_gframe(&st[0], root, nodes)) != OK) goto error;
    while (sn) {
        gframe *f = &st[sn - 1];
        int pushed = 0;
        while (f->i < PyList_GET_SIZE(f->branches)) {
            PyObject *br = PyList_GET_ITEM(f->branches, f->i);
            PyObject *role = PyTuple_GET_ITEM(br, 0), *target = PyTuple_GET_ITEM(br, 1);
            PyObject *rtext, *ralign, *text, *align;
            f->i++;
            if (role == s_slash) { /* a concept (parse() puts it first, as s_slash) */
                if ((r = split_alignment(target, &text, &align)) != OK) goto error;
                int e = PyObject_SetAttr(f->node, s_label, text);
                Py_DECREF(text);
                if (e < 0) {
                    Py_XDECREF(align);
                    goto error;
                }
                if (align && set_extra(f->node, s_alignment, align) < 0) goto error;
                continue;
            }
            if ((r = split_alignment(role, &rtext, &ralign)) != OK) goto error;
            {
                PyObject *stripped = cached_substring(rtext, 1, PyUnicode_GET_LENGTH(rtext));
                Py_DECREF(rtext);
                rtext = stripped;
                if (!rtext) {
                    Py_XDECREF(ralign);
                    goto error;
                }
            }
            if (PyTuple_Check(target)) {
                if (append_edge(edges, f->var, PyTuple_GET_ITEM(target, 0), rtext, ralign) < 0) goto error;
                if (sn == scap) {
                    gframe *s2 = realloc(st, (size_t)scap * 2 * sizeof(gframe));
                    if (!s2) {
                        PyErr_NoMemory();
                        goto error;
                    }
                    st = s2;
                    scap *= 2;
                }
                sn++;
                if ((r = new_gframe(&st[sn - 1], target, nodes)) != OK) goto error;
                pushed = 1;
                break;
            }
            if ((r = split_alignment(target, &text, &align)) != OK) {
                Py_DECREF(rtext);
                Py_XDECREF(ralign);
                goto error;
            }
            int quoted;
            PyObject *value = unquote(text, &quoted);
            Py_DECREF(text);
            int isvar = 0;
            if (value && !quoted) isvar = PySet_Contains(variables, value);
            if (!value || isvar < 0) {
                Py_XDECREF(value);
                Py_DECREF(rtext);
                Py_XDECREF(ralign);
                Py_XDECREF(align);
                goto error;
            }
            if (isvar) {
                Py_XDECREF(align);
                int appended = append_edge(edges, f->var, value, rtext, ralign);
                Py_DECREF(value);
                if (appended < 0) goto error;
            } else {
                Py_XDECREF(ralign);
                /* Property(rtext, value, quoted): a NamedTuple, made as tuple.__new__ makes it */
                PyObject *p = ((PyTypeObject *)PropertyCls)->tp_alloc((PyTypeObject *)PropertyCls, 3);
                if (p) {
                    PyTuple_SET_ITEM(p, 0, rtext);
                    PyTuple_SET_ITEM(p, 1, value);
                    Py_INCREF(quoted ? Py_True : Py_False);
                    PyTuple_SET_ITEM(p, 2, quoted ? Py_True : Py_False);
                } else {
                    Py_DECREF(value);
                    Py_DECREF(rtext);
                }
                if (!p || PyList_Append(f->props, p) < 0) {
                    Py_XDECREF(p);
                    Py_XDECREF(align);
                    goto error;
                }
                Py_DECREF(p);
                if (align) {
                    if (!f->palign) {
                        f->palign = PyDict_New();
                        if (!f->palign) {
                            Py_DECREF(align);
                            goto error;
                        }
                        Py_INCREF(f->palign);
                        if (set_extra(f->node, s_property_alignments, f->palign) < 0) {
                            Py_DECREF(align);
                            goto error;
                        }
                    }
                    PyObject *key = PyLong_FromSsize_t(PyList_GET_SIZE(f->props) - 1);
                    int e = key ? PyDict_SetItem(f->palign, key, align) : -1;
                    Py_XDECREF(key);
                    Py_DECREF(align);
                    if (e < 0) goto error;
                }
            }
        }
        if (pushed) continue;
        if (PyObject_SetAttr(f->node, s_properties, f->props) < 0) goto error;
        gframe_clear(f);
        sn--;
    }
    {
        PyObject *tops = Py_BuildValue("[O]", PyTuple_GET_ITEM(root, 0));
        if (!tops) goto error;
        int e = PyObject_SetAttr(g, s_tops, tops);
        Py_DECREF(tops);
        if (e < 0) goto error;
    }
    free(st);
    Py_DECREF(variables);
    Py_DECREF(nodes);
    Py_DECREF(edges);
    Py_DECREF(gid);
    *out = g;
    return OK;
error:
    for (Py_ssize_t k = 0; k < sn; k++) gframe_clear(&st[k]);
    free(st);
    Py_XDECREF(variables);
    Py_XDECREF(nodes);
    Py_XDECREF(edges);
    Py_XDECREF(gid);
    Py_XDECREF(g);
    if (r == OK) r = ERR;
    if (r == FAIL && PyErr_Occurred()) r = ERR;
    return r;
}

static PyObject *p_configure(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *g, *n, *e, *p;
    if (!PyArg_ParseTuple(args, "OOOO", &g, &n, &e, &p)) return NULL;
    if (!PyType_Check(p) || !PyType_IsSubtype((PyTypeObject *)p, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "configure: Property must be a tuple subclass (NamedTuple)");
        return NULL;
    }
    Py_INCREF(g);
    Py_INCREF(n);
    Py_INCREF(e);
    Py_INCREF(p);
    Py_XSETREF(GraphCls, g);
    Py_XSETREF(NodeCls, n);
    Py_XSETREF(EdgeCls, e);
    Py_XSETREF(PropertyCls, p);
    Py_RETURN_NONE;
}

/* read_block(block, start, index, file) -> list of Graph or None */
static PyObject *p_read_block(PyObject *self, PyObject *args) {
    PyObject *block, *file;
    Py_ssize_t start, index;
    (void)self;
    if (!PyArg_ParseTuple(args, "UnnO", &block, &start, &index, &file)) return NULL;
    if (!GraphCls) {
        PyErr_SetString(PyExc_RuntimeError, "_penman.configure() was not called");
        return NULL;
    }
    if (PyUnicode_READY(block) < 0) return NULL;
    PyObject *trees = PyList_New(0);
    if (!trees) return NULL;
    fstack s = {NULL, 0, 0};
    int r = parse(block, start, trees, &s);
    fstack_clear(&s);
    free(s.f);
    Py_ssize_t m = PyList_GET_SIZE(trees);
    PyObject *graphs = NULL;
    if (r == OK) {
        graphs = PyList_New(m);
        if (!graphs) r = ERR;
    }
    for (Py_ssize_t k = 0; r == OK && k < m; k++) {
        PyObject *t = PyList_GET_ITEM(trees, k), *gr;
        r = build_graph(PyTuple_GET_ITEM(t, 1), PyTuple_GET_ITEM(t, 2), index + k + 1, file,
                        PyLong_AsSsize_t(PyTuple_GET_ITEM(t, 0)), &gr);
        if (r == OK) PyList_SET_ITEM(graphs, k, gr);
    }
    Py_DECREF(trees);
    if (r == OK) return graphs;
    Py_XDECREF(graphs);
    if (r == ERR) return NULL;
    Py_RETURN_NONE;
}

static PyObject *p_parse_block(PyObject *self, PyObject *args) {
    PyObject *block;
    Py_ssize_t start;
    (void)self;
    if (!PyArg_ParseTuple(args, "Un", &block, &start)) return NULL;
    if (PyUnicode_READY(block) < 0) return NULL;
    PyObject *trees = PyList_New(0);
    if (!trees) return NULL;
    fstack s = {NULL, 0, 0};
    int r = parse(block, start, trees, &s);
    fstack_clear(&s);
    free(s.f);
    if (r == OK) return trees;
    Py_DECREF(trees);
    if (r == ERR) return NULL;
    Py_RETURN_NONE;
}

/* split_blocks(text, base, content_only) -> ([(line, block), ...], tail_line, tail)
 * The blank-line separated blocks of text (lines end at '\n'; a line is blank when every
 * character of it is whitespace, as str.strip() sees it), each with the number of its
 * first line (base + index of the line in text) and its lines joined with their line
 * ends.  The last block, when it runs to the end of text (it may go on in the text that
 * follows), is not in the list but is the tail (None when there is none).  content_only:
 * leave out blocks without a line that, after spaces and tabs, starts with a character
 * other than '#' and whitespace (comment-only blocks such as release headers). */
static PyObject *p_split_blocks(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t base;
    int content_only;
    if (!PyArg_ParseTuple(args, "Unp", &text, &base, &content_only)) return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), pos = 0, line = 0, bstart = -1, bline = 0;
    int content = 0;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    while (pos < n) {
        Py_ssize_t p = pos;
        int blank = 1, lead = 1, line_content = 0;
        for (; p < n; p++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, p);
            if (c == '\n') break;
            if (lead && c != ' ' && c != '\t') {
                lead = 0;
                line_content = c != '#' && !Py_UNICODE_ISSPACE(c);
            }
            if (blank && !(c == ' ' || c == '\t' || c == '\r' || Py_UNICODE_ISSPACE(c))) blank = 0;
            if (!blank && !lead) {   /* the rest of the line does not matter: skip to its end */
                if (kind == PyUnicode_1BYTE_KIND) {
                    const char *q = memchr((const char *)data + p, '\n', (size_t)(n - p));
                    p = q ? (Py_ssize_t)(q - (const char *)data) : n;
                } else {
                    while (p < n && PyUnicode_READ(kind, data, p) != '\n') p++;
                }
                break;
            }
        }
        Py_ssize_t next = p < n ? p + 1 : n;
        if (!blank) {
            if (bstart < 0) { bstart = pos; bline = line; content = 0; }
            content |= line_content;
        } else if (bstart >= 0) {
            if (content || !content_only) {
                PyObject *item = Py_BuildValue("(nN)", base + bline, PyUnicode_Substring(text, bstart, pos));
                if (!item || PyList_Append(out, item) < 0) { Py_XDECREF(item); Py_DECREF(out); return NULL; }
                Py_DECREF(item);
            }
            bstart = -1;
        }
        pos = next;
        line++;
    }
    if (bstart >= 0) {
        PyObject *tail = PyUnicode_Substring(text, bstart, n);
        if (!tail) { Py_DECREF(out); return NULL; }
        return Py_BuildValue("(NnN)", out, base + bline, tail);
    }
    return Py_BuildValue("(NnO)", out, (Py_ssize_t)0, Py_None);
}

static PyMethodDef methods[] = {
    {"parse_block", p_parse_block, METH_VARARGS,
     "parse_block(block, start) -> [(first_line, (var, branches), metadata), ...] or None "
     "(None: not read cleanly, use the Python parser)"},
    {"configure", p_configure, METH_VARARGS, "configure(Graph, Node, Edge, Property): the classes to build"},
    {"split_blocks", p_split_blocks, METH_VARARGS,
     "split_blocks(text, base, content_only) -> ([(line, block), ...], tail_line, tail): "
     "the blank-line separated blocks"},
    {"read_block", p_read_block, METH_VARARGS,
     "read_block(block, start, index, file) -> [Graph, ...] or None (None: use the Python reader)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_penman",
                                       "Compiled PENMAN reader (tokenizer + parser of one block).", -1,
                                       methods};

PyMODINIT_FUNC PyInit__penman(void) {
#define INTERN(var, text) \
    if (!(var = PyUnicode_InternFromString(text))) return NULL;
    INTERN(s_id, "id")
    INTERN(s_snt, "snt")
    INTERN(s_tok, "tok")
    INTERN(s_metadata, "metadata")
    INTERN(s_source_file, "source_file")
    INTERN(s_source_line, "source_line")
    INTERN(s_extra, "extra")
    INTERN(s_auto_id, "auto_id")
    INTERN(s_text, "text")
    INTERN(s_tops, "tops")
    INTERN(s_nodes, "nodes")
    INTERN(s_edges, "edges")
    INTERN(s_label, "label")
    INTERN(s_properties, "properties")
    INTERN(s_alignment, "alignment")
    INTERN(s_property_alignments, "property_alignments")
    INTERN(s_slash, "/")
#undef INTERN
    return PyModule_Create(&moduledef);
}
