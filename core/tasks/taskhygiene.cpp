#include "core/tasks/taskhygiene.h"
#include "core/db/payload.h"
#include "core/db/unixtime.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

namespace sieve {

namespace {

// sys.stdlib_module_names of Python 3.11 (public names), plus the packages setup.sh installs and theirs.
constexpr const char *kProvided[] = {
    "abc",
    "aifc",
    "antigravity",
    "argparse",
    "array",
    "ast",
    "asynchat",
    "asyncio",
    "asyncore",
    "atexit",
    "audioop",
    "base64",
    "bdb",
    "binascii",
    "bisect",
    "builtins",
    "bz2",
    "cProfile",
    "calendar",
    "cgi",
    "cgitb",
    "chunk",
    "cmath",
    "cmd",
    "code",
    "codecs",
    "codeop",
    "collections",
    "colorsys",
    "compileall",
    "concurrent",
    "configparser",
    "contextlib",
    "contextvars",
    "copy",
    "copyreg",
    "crypt",
    "csv",
    "ctypes",
    "curses",
    "dataclasses",
    "datetime",
    "dbm",
    "decimal",
    "difflib",
    "dis",
    "distutils",
    "doctest",
    "email",
    "encodings",
    "ensurepip",
    "enum",
    "errno",
    "faulthandler",
    "fcntl",
    "filecmp",
    "fileinput",
    "fnmatch",
    "fractions",
    "ftplib",
    "functools",
    "gc",
    "genericpath",
    "getopt",
    "getpass",
    "gettext",
    "glob",
    "graphlib",
    "grp",
    "gzip",
    "hashlib",
    "heapq",
    "hmac",
    "html",
    "http",
    "idlelib",
    "imaplib",
    "imghdr",
    "imp",
    "importlib",
    "inspect",
    "io",
    "ipaddress",
    "itertools",
    "json",
    "keyword",
    "lib2to3",
    "linecache",
    "locale",
    "logging",
    "lzma",
    "mailbox",
    "mailcap",
    "marshal",
    "math",
    "mimetypes",
    "mmap",
    "modulefinder",
    "msilib",
    "msvcrt",
    "multiprocessing",
    "netrc",
    "nis",
    "nntplib",
    "nt",
    "ntpath",
    "nturl2path",
    "numbers",
    "opcode",
    "operator",
    "optparse",
    "os",
    "ossaudiodev",
    "pathlib",
    "pdb",
    "pickle",
    "pickletools",
    "pipes",
    "pkgutil",
    "platform",
    "plistlib",
    "poplib",
    "posix",
    "posixpath",
    "pprint",
    "profile",
    "pstats",
    "pty",
    "pwd",
    "py_compile",
    "pyclbr",
    "pydoc",
    "pydoc_data",
    "pyexpat",
    "queue",
    "quopri",
    "random",
    "re",
    "readline",
    "reprlib",
    "resource",
    "rlcompleter",
    "runpy",
    "sched",
    "secrets",
    "select",
    "selectors",
    "shelve",
    "shlex",
    "shutil",
    "signal",
    "site",
    "smtpd",
    "smtplib",
    "sndhdr",
    "socket",
    "socketserver",
    "spwd",
    "sqlite3",
    "sre_compile",
    "sre_constants",
    "sre_parse",
    "ssl",
    "stat",
    "statistics",
    "string",
    "stringprep",
    "struct",
    "subprocess",
    "sunau",
    "symtable",
    "sys",
    "sysconfig",
    "syslog",
    "tabnanny",
    "tarfile",
    "telnetlib",
    "tempfile",
    "termios",
    "textwrap",
    "this",
    "threading",
    "time",
    "timeit",
    "tkinter",
    "token",
    "tokenize",
    "tomllib",
    "trace",
    "traceback",
    "tracemalloc",
    "tty",
    "turtle",
    "turtledemo",
    "types",
    "typing",
    "unicodedata",
    "unittest",
    "urllib",
    "uu",
    "uuid",
    "venv",
    "warnings",
    "wave",
    "weakref",
    "webbrowser",
    "winreg",
    "winsound",
    "wsgiref",
    "xdrlib",
    "xml",
    "xmlrpc",
    "zipapp",
    "zipfile",
    "zipimport",
    "zlib",
    "zoneinfo",
    "torch",
    "triton",
    "numpy",
    "typing_extensions",
    "sympy",
    "mpmath",
    "networkx",
    "jinja2",
    "markupsafe",
    "filelock",
    "fsspec",
    "packaging",
    "tokenizers",
    "datasketch",
    "scipy",
};

constexpr std::array<std::string_view, 5> kDownloadCalls = {"from_pretrained", "hf_hub_download", "snapshot_download",
                                                            "load_state_dict_from_url", "download_url_to_file"};

bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string_view trimLeft(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    return s;
}

// The dotted name at the start of s ("torch.nn" in "torch.nn as nn, x").
std::string_view dottedName(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size() && (isIdentChar(s[i]) || s[i] == '.'))
        ++i;
    return s.substr(0, i);
}

std::string topLevel(std::string_view dotted)
{
    return std::string(dotted.substr(0, dotted.find('.')));
}

} // namespace

bool verifierProvidesModule(std::string_view m)
{
    static const std::set<std::string_view> provided(std::begin(kProvided), std::end(kProvided));
    return provided.count(m) > 0;
}

std::vector<ImportFinding> scanReferenceImports(std::string_view code)
{
    std::vector<ImportFinding> out;
    std::set<std::string> seen;
    bool inTriple = false;
    char tripleQuote = 0;
    int lineNo = 0;
    std::size_t pos = 0;
    while (pos <= code.size()) {
        const std::size_t end = std::min(code.find('\n', pos), code.size());
        std::string_view line = code.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        // Skip the insides of triple-quoted strings (docstrings, CUDA sources) line by line.
        auto countTriples = [](std::string_view l, char q) {
            const std::string t(3, q);
            std::size_t n = 0;
            for (std::size_t i = l.find(t); i != std::string_view::npos; i = l.find(t, i + 3))
                ++n;
            return n;
        };
        if (inTriple) {
            if (countTriples(line, tripleQuote) % 2 == 1)
                inTriple = false;
            continue;
        }
        for (char q : {'"', '\''})
            if (countTriples(line, q) % 2 == 1) {
                inTriple = true;
                tripleQuote = q;
            }
        const std::string_view body = trimLeft(line);
        if (body.empty() || body.front() == '#')
            continue;
        const std::string_view stmt = body.substr(0, body.find('#'));
        for (std::string_view call : kDownloadCalls) {
            const std::size_t at = stmt.find(call);
            if (at != std::string_view::npos && (at == 0 || !isIdentChar(stmt[at - 1])) &&
                stmt.substr(at + call.size()).find('(') != std::string_view::npos &&
                seen.insert(std::string(call)).second)
                out.push_back({"TASK_NEEDS_DOWNLOAD", std::string(call), lineNo});
        }
        std::vector<std::string> modules;
        if (stmt.rfind("import ", 0) == 0) {
            std::string_view rest = stmt.substr(7);
            while (true) {
                rest = trimLeft(rest);
                const std::string_view name = dottedName(rest);
                if (name.empty())
                    break;
                modules.push_back(topLevel(name));
                const std::size_t comma = rest.find(',');
                if (comma == std::string_view::npos)
                    break;
                rest = rest.substr(comma + 1);
            }
        } else if (stmt.rfind("from ", 0) == 0) {
            const std::string_view rest = trimLeft(stmt.substr(5));
            if (!rest.empty() && rest.front() != '.') // relative imports stay inside the task's own package
                if (const std::string_view name = dottedName(rest);
                    !name.empty() && trimLeft(rest.substr(name.size())).rfind("import", 0) == 0)
                    modules.push_back(topLevel(name));
        }
        for (const std::string &m : modules)
            if (!verifierProvidesModule(m) && seen.insert(m).second)
                out.push_back({"TASK_IMPORT_MISSING", m, lineNo});
    }
    return out;
}

void storeTaskHygiene(db::Database &db, const TaskHygiene &h)
{
    db.prepare("INSERT INTO task_hygiene(task_id, state, codes, device, checked_at, report_json) "
               "VALUES(?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(task_id) DO UPDATE SET state=excluded.state, "
               "codes=excluded.codes, device=excluded.device, checked_at=excluded.checked_at, "
               "report_json=excluded.report_json")
        .bind(1, h.taskId)
        .bind(2, h.state)
        .bind(3, h.codes)
        .bind(4, h.device)
        .bind(5, h.checkedAt)
        .bind(6, h.reportJson)
        .run();
}

std::optional<TaskHygiene> loadTaskHygiene(const db::Database &db, std::int64_t taskId)
{
    db::Statement st =
        db.prepare("SELECT state, codes, device, checked_at, report_json FROM task_hygiene WHERE task_id=?1");
    st.bind(1, taskId);
    if (!st.step())
        return std::nullopt;
    return TaskHygiene{taskId, st.text(0), st.text(1), st.text(2), st.int64(3), st.text(4)};
}

std::vector<ImportScanResult> scanNewTaskImports(db::Database &db)
{
    std::vector<ImportScanResult> found;
    std::vector<TaskHygiene> rows;
    {
        db::Statement st = db.prepare("SELECT t.id, t.name, p.reference_code FROM tasks t JOIN task_payloads p ON "
                                      "p.task_id = t.id WHERE NOT EXISTS (SELECT 1 FROM task_hygiene h WHERE "
                                      "h.task_id = t.id) ORDER BY t.id");
        const std::int64_t now = unixNow();
        while (st.step()) {
            TaskHygiene h{st.int64(0), "unchecked", "", "import", now, "{}"};
            std::vector<ImportFinding> f;
            try {
                f = scanReferenceImports(payload::unpack(st.blobView(2)));
            } catch (const std::exception &) {
                // An unreadable payload is the verifier's to report (CORRUPT_PAYLOAD); nothing to scan.
            }
            if (!f.empty()) {
                nlohmann::json report = nlohmann::json::array();
                std::string codes;
                for (const ImportFinding &x : f) {
                    report.push_back({{"code", x.code},
                                      {x.code == "TASK_NEEDS_DOWNLOAD" ? "call" : "module", x.name},
                                      {"line", x.line}});
                    if (codes.find(x.code) == std::string::npos)
                        codes += (codes.empty() ? "" : ",") + x.code;
                }
                h.state = "import_missing";
                h.codes = codes;
                h.reportJson = nlohmann::json{{"source", "import"}, {"hygiene", report}}.dump();
                found.push_back({st.text(1), std::move(f)});
            }
            rows.push_back(std::move(h));
        }
    }
    db::Transaction tx(db);
    for (const TaskHygiene &h : rows)
        storeTaskHygiene(db, h);
    tx.commit();
    return found;
}

} // namespace sieve
