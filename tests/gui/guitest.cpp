#include "tests/gui/guitest.h"

#include "core/db/corpus.h"
#include "core/db/payload.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QTest>
#include <QWidget>

namespace sieve::test {

namespace {
const char *kReference = R"(import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)

N = 4096

def get_inputs():
    return [torch.randn(N)]

def get_init_inputs():
    return []
)";

const char *kReluA = R"(import torch
import triton
import triton.language as tl

@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.maximum(x, 0.0)
    tl.store(y_ptr + offs, y, mask=mask)

class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
)";

const char *kReluB = R"(import torch
import triton
import triton.language as tl

@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.where(x > 0, x, 0.0)
    tl.store(y_ptr + offs, y, mask=mask)

class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 4096),)](x, y, n, BLOCK=4096, num_warps=8)
        return y
)";

const char *kMatmulCuda = R"(#include <cuda_runtime.h>

__global__ void matmul_bias(const float *a, const float *b, const float *bias, float *c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float acc = bias[col];
        for (int k = 0; k < n; ++k)
            acc += a[row * n + k] * b[k * n + col];
        c[row * n + col] = acc;
    }
}
)";

// The same product with 16x16 tiles in shared memory: other registers, 2 KiB of shared memory.
const char *kMatmulCudaTiled = R"(#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_bias(const float *a, const float *b, const float *bias, float *c, int n)
{
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.f;
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        int ka = t * TILE + threadIdx.x, kb = t * TILE + threadIdx.y;
        ta[threadIdx.y][threadIdx.x] = row < n && ka < n ? a[row * n + ka] : 0.f;
        tb[threadIdx.y][threadIdx.x] = col < n && kb < n ? b[kb * n + col] : 0.f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n)
        c[row * n + col] = acc + bias[col];
}
)";

void run(db::Database &db, const std::string &sql)
{
    db.exec(sql);
}
} // namespace

GuiCorpus::GuiCorpus()
{
    path = dir.filePath(QStringLiteral("test.sieve"));
    Corpus c = Corpus::create(path.toStdString());
    db::Database &db = c.db();
    db::Transaction tx(db);
    run(db, "INSERT INTO tasks(id, task_key, name, level, category, backend, dtype, atol, rtol, created_at) VALUES"
            "(1, 'k1', 'relu', 1, 'activation', 'triton', 'fp32', 1e-4, 1e-4, 1700000000),"
            "(2, 'k2', 'matmul_bias', 2, 'gemm', 'cuda', 'fp32', 1e-4, 1e-4, 1700000000),"
            "(3, 'k3', 'softmax', 1, 'reduction', 'triton', 'fp16', 1e-2, 1e-2, 1700000000)");
    db.prepare("INSERT INTO task_payloads(task_id, reference_code) VALUES(1, ?1)")
        .bindBlob(1, payload::pack(kReference))
        .run();
    run(db,
        "INSERT INTO samples(id, sample_key, name, task_id, backend, origin, model, temperature, attempt, has_answer, "
        "status, speedup, cluster_id, created_at) VALUES"
        "(1, 's1', 'relu-a1', 1, 'triton', 'teacher', 'teacher-7b', 0.7, 1, 1, 'PASS', 1.42, 1, 1700000001),"
        "(2, 's2', 'relu-a2', 1, 'triton', 'teacher', 'teacher-7b', 0.7, 2, 1, 'PASS', 2.10, 1, 1700000002),"
        "(3, 's3', 'relu-a3', 1, 'triton', 'teacher', 'teacher-70b', 1.0, 3, 1, 'FAIL_MISMATCH', NULL, NULL, "
        "1700000003),"
        "(4, 's4', 'relu-a4', 1, 'triton', 'teacher', 'teacher-70b', 1.0, 4, 1, 'PENDING', NULL, NULL, 1700000004),"
        "(5, 's5', 'matmul-a1', 2, 'cuda', 'archive', NULL, NULL, 1, 1, 'PASS', 0.85, NULL, 1700000005),"
        "(6, 's6', 'matmul-a2', 2, 'cuda', 'archive', NULL, NULL, 2, 1, 'FAIL_COMPILE', NULL, NULL, 1700000006),"
        "(7, 's7', 'matmul-a3', 2, 'cuda', 'archive', NULL, NULL, 3, 1, 'PENDING', NULL, NULL, 1700000007),"
        "(8, 's8', 'softmax-a1', 3, 'triton', 'teacher', 'teacher-7b', 0.2, 1, 1, 'PASS', 12.5, NULL, 1700000008),"
        "(9, 's9', 'softmax-a2', 3, 'triton', 'teacher', 'teacher-7b', 0.2, 2, 1, 'PENDING', NULL, NULL, 1700000009)");
    auto payloadRow = db.prepare("INSERT INTO sample_payloads(sample_id, code, reasoning) VALUES(?1, ?2, ?3)");
    const std::pair<int, const char *> codes[] = {{1, kReluA},      {2, kReluB},      {3, kReluB},
                                                  {4, kReluA},      {5, kMatmulCuda}, {6, kMatmulCudaTiled},
                                                  {7, kMatmulCuda}, {8, kReluA},      {9, kReluB}};
    for (const auto &[id, code] : codes) {
        payloadRow.bind(1, id).bindBlob(2, payload::pack(code));
        payloadRow.bindBlob(3, payload::pack("Load a block, clamp at zero, store. Sample " + std::to_string(id) + "."));
        payloadRow.run();
    }
    run(db, "INSERT INTO verify_runs(id, started_at, finished_at, state, mode, env_json, verifier_version) VALUES"
            "(1, 1700000100, 1700000200, 'done', 'cpu', "
            "'{\"python\":\"3.11.7\",\"torch\":\"2.11.0\",\"triton\":\"3.6.0\",\"device\":\"cpu\",\"interpreted\":true}"
            "', '1')");
    run(db, "INSERT INTO verdicts(id, run_id, sample_id, status, stage, reasons, message, device, interpreted, "
            "kernels_launched, custom_kernel_share, candidate_ms, eager_ms, compile_ms, speedup, flags, duration_ms, "
            "created_at) VALUES"
            "(1, 1, 1, 'PASS', 'timing', '[]', 'All checks passed.', 'cpu', 1, 3, 0.97, 0.010, 0.014, 0.012, 1.42, "
            "'[]', 812, 1700000150),"
            "(2, 1, 3, 'FAIL_MISMATCH', 'correct', '[\"MISMATCH\"]', 'Output differs from the reference on shape 0.', "
            "'cpu', 1, 1, 1.0, NULL, NULL, NULL, NULL, '[]', 455, 1700000160)");
    db.prepare("INSERT INTO verdict_payloads(verdict_id, log) VALUES(2, ?1)")
        .bindBlob(
            1,
            payload::pack(
                "Traceback (most recent call last):\n"
                "  File \"/venv/lib/python3.11/site-packages/torch/nn/modules/module.py\", line 1751, in _call_impl\n"
                "  File \"/tmp/sieve-scratch/job-3-411-5120/sieve_candidate_3.py\", line 12, in relu_kernel\n"
                "    y = tl.where(x > 0, x, 0.0)\nAssertionError: max abs error 0.5 > atol\n"))
        .run();
    for (int seed = 0; seed < 5; ++seed)
        for (int shape = 0; shape < 2; ++shape) {
            db.prepare("INSERT INTO verdict_checks VALUES(1, ?1, ?2, ?3, 1, ?4, ?5, 0, 0)")
                .bind(1, shape)
                .bind(2, shape == 0 ? "{\"N\":4096}" : "{\"N\":65536}")
                .bind(3, seed)
                .bind(4, 1e-7 * (seed + 1))
                .bind(5, 2e-7 * (seed + 1))
                .run();
            db.prepare("INSERT INTO verdict_checks VALUES(2, ?1, ?2, ?3, ?4, ?5, ?6, ?7, 0)")
                .bind(1, shape)
                .bind(2, shape == 0 ? "{\"N\":4096}" : "{\"N\":65536}")
                .bind(3, seed)
                .bind(4, shape == 0 ? 0 : 1)
                .bind(5, shape == 0 ? 0.5 : 1e-6)
                .bind(6, shape == 0 ? 1.0 : 1e-6)
                .bind(7, shape == 0 ? 17 : 0)
                .run();
        }
    run(db, "INSERT INTO verdict_timings VALUES"
            "(1, 0, 'candidate', 0.010, 0.010, 0.0002, 100), (1, 0, 'eager', 0.014, 0.014, 0.0003, 100),"
            "(1, 0, 'compile', 0.012, 0.012, 0.0002, 100), (1, 1, 'candidate', 0.090, 0.091, 0.001, 100),"
            "(1, 1, 'eager', 0.130, 0.131, 0.002, 100), (1, 1, 'compile', 0.100, 0.101, 0.001, 100)");
    run(db, "INSERT INTO clusters(id, scope, task_id, representative_id, size, params_json, created_at) VALUES"
            "(1, 'task', 1, 2, 2, '{\"threshold\":0.8}', 1700000300)");
    run(db, "INSERT INTO cluster_members VALUES(1, 1, 0.91), (2, 1, 1.0)");
    tx.commit();
}

bool waitFor(const std::function<bool()> &done, int ms)
{
    QDeadlineTimer deadline(ms);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        QTest::qWait(5);
    }
    return true;
}

void screenshot(QWidget *w, const QString &name)
{
    const QString dir = QStringLiteral(SIEVE_SCREENSHOT_DIR);
    QDir().mkpath(dir);
    // Let pending layout requests run so the picture shows what a person would see.
    QTest::qWait(50);
    w->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

QString fakeCli(const QTemporaryDir &dir, const QStringList &commands, const QString &stdoutText, int exitCode)
{
    const QString out = dir.filePath(QStringLiteral("fake-cli.out"));
    QFile o(out);
    o.open(QIODevice::WriteOnly);
    o.write(stdoutText.toUtf8());
    o.close();
    const QString script = dir.filePath(QStringLiteral("fake-sieve-cli"));
    QFile f(script);
    f.open(QIODevice::WriteOnly);
    QString text = QStringLiteral("#!/bin/sh\nif [ \"$1\" = \"--help\" ]; then\n"
                                  "printf 'Usage: sieve-cli COMMAND\\n\\nCommands:\\n'\n");
    for (const QString &c : commands)
        text += QStringLiteral("printf '  %1   does things\\n'\n").arg(c);
    text += QStringLiteral("exit 0\nfi\necho \"$@\" > '%1.args'\ncat '%1'\nexit %2\n").arg(out).arg(exitCode);
    f.write(text.toUtf8());
    f.close();
    f.setPermissions(f.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeUser);
    return script;
}

} // namespace sieve::test
