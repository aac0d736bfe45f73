#!/usr/bin/env python3
"""Writes the tiny random-weight test models of the embedded engine (crates/local-llm).

A qwen2-architecture model of about 107k parameters with a real byte-level BPE tokenizer
(GPT-2 byte alphabet, merges trained here on a small English/Chinese text, Qwen's pre-tokenizer)
and a ChatML chat template, in three weight types: tiny-q8_0.gguf (~120 KB, what most tests
use), tiny-f16.gguf and tiny-f32.gguf. The weights are random (seeded): the model writes
gibberish, deterministically. The special tokens' embedding rows are zero, and the output
matrix is the embedding matrix (tied), so their logits are 0 while the best ordinary token's is
far above: a greedy answer never ends on its own, only at max_tokens (tests rely on long
answers to cancel mid-way).

Usage (needs the `gguf` and `numpy` packages; scripts/make-tiny-gguf.sh sets up a venv):
    python3 scripts/make-tiny-gguf.py crates/local-llm/tests/fixtures
"""

import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import gguf

SEED = 20261126
N_EMBD = 64
N_HEAD = 4
N_HEAD_KV = 2
N_FF = 128
N_LAYER = 2
N_CTX_TRAIN = 32768
N_MERGES = 253  # 256 bytes + 253 merges + 3 specials = 512 tokens
SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]

CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)

CORPUS = """
You are a gentle life coach. The user wants to talk about their week, their sleep, their work
and the people they love. Ask one question at a time and listen. Reply with exactly one JSON
object: {"action": {"type": "final_answer", "content": "Hello! How are you today?"}}.
To use a tool: {"action": {"type": "write_state", "arguments": {"path": "mood", "value": 7}}}.
The birth date is 1990-05-17 at 08:30 in Shanghai. The tarot card is The Star, upright.
Today I feel tired but hopeful; tomorrow I will rest, walk outside and call my mother.
你好！今天过得怎么样？我们来聊聊你的工作、睡眠和家人。请告诉我你的出生日期和时间。
八字：年柱、月柱、日柱、时柱。星座：太阳星座和月亮星座。塔罗牌：星星，正位。
"""


def bytes_to_unicode():
    """GPT-2's reversible map from bytes to printable characters (the byte-level alphabet)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(
        range(ord("®"), ord("ÿ") + 1)
    )
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, (chr(c) for c in cs)))


def train_bpe(text, n_merges):
    """Byte-level BPE: words by a Qwen-like pre-tokenizer split, then the most frequent pair
    merged, n_merges times (ties broken by the pair itself, so the result is reproducible)."""
    byte_map = bytes_to_unicode()
    words = re.findall(r" ?[A-Za-z]+| ?[0-9]| ?[^\sA-Za-z0-9]+|\s+", text)
    counts = Counter(tuple(byte_map[b] for b in w.encode("utf-8")) for w in words)
    merges = []
    for _ in range(n_merges):
        pairs = Counter()
        for word, c in counts.items():
            for a, b in zip(word, word[1:]):
                pairs[(a, b)] += c
        if not pairs:
            break
        best = min(pairs.items(), key=lambda kv: (-kv[1], kv[0]))[0]
        merges.append(best)
        merged = Counter()
        for word, c in counts.items():
            out, i = [], 0
            while i < len(word):
                if i + 1 < len(word) and (word[i], word[i + 1]) == best:
                    out.append(word[i] + word[i + 1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            merged[tuple(out)] += c
        counts = merged
    alphabet = [byte_map[b] for b in range(256)]
    tokens = alphabet + [a + b for a, b in merges]
    assert len(set(tokens)) == len(tokens), "a merge produced an existing token"
    return tokens, [f"{a} {b}" for a, b in merges]


def weights(rng, vocab, special_ids):
    """The random tensors, numpy shape (rows, cols) = ggml's (ne1, ne0)."""
    n_embd_kv = N_EMBD // N_HEAD * N_HEAD_KV

    def mat(rows, cols, scale):
        return (rng.standard_normal((rows, cols)) * scale).astype(np.float32)

    embd = mat(vocab, N_EMBD, 0.5)
    embd[special_ids, :] = 0.0
    tensors = {"token_embd.weight": embd, "output_norm.weight": np.ones(N_EMBD, np.float32)}
    for i in range(N_LAYER):
        p = f"blk.{i}."
        tensors |= {
            p + "attn_norm.weight": np.ones(N_EMBD, np.float32),
            p + "attn_q.weight": mat(N_EMBD, N_EMBD, 0.125),
            p + "attn_q.bias": (rng.standard_normal(N_EMBD) * 0.02).astype(np.float32),
            p + "attn_k.weight": mat(n_embd_kv, N_EMBD, 0.125),
            p + "attn_k.bias": (rng.standard_normal(n_embd_kv) * 0.02).astype(np.float32),
            p + "attn_v.weight": mat(n_embd_kv, N_EMBD, 0.125),
            p + "attn_v.bias": (rng.standard_normal(n_embd_kv) * 0.02).astype(np.float32),
            p + "attn_output.weight": mat(N_EMBD, N_EMBD, 0.125),
            p + "ffn_norm.weight": np.ones(N_EMBD, np.float32),
            p + "ffn_gate.weight": mat(N_FF, N_EMBD, 0.125),
            p + "ffn_up.weight": mat(N_FF, N_EMBD, 0.125),
            p + "ffn_down.weight": mat(N_EMBD, N_FF, 0.09),
        }
    return tensors


def write(path, kind, tokens, merges, tensors):
    file_type = {"f32": gguf.LlamaFileType.ALL_F32, "f16": gguf.LlamaFileType.MOSTLY_F16,
                 "q8_0": gguf.LlamaFileType.MOSTLY_Q8_0}[kind]
    w = gguf.GGUFWriter(str(path), "qwen2")
    w.add_name("VibeLife tiny test model")
    w.add_file_type(file_type)
    w.add_context_length(N_CTX_TRAIN)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD_KV)
    w.add_rope_freq_base(1000000.0)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("qwen2")
    w.add_token_list(tokens)
    types = [gguf.TokenType.NORMAL] * (len(tokens) - len(SPECIALS)) + [gguf.TokenType.CONTROL] * len(SPECIALS)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_eos_token_id(tokens.index("<|im_end|>"))
    w.add_bos_token_id(tokens.index("<|endoftext|>"))
    w.add_pad_token_id(tokens.index("<|endoftext|>"))
    w.add_add_bos_token(False)
    w.add_chat_template(CHAT_TEMPLATE)
    for name, data in tensors.items():
        if data.ndim == 2 and kind == "f16":
            w.add_tensor(name, data.astype(np.float16))
        elif data.ndim == 2 and kind == "q8_0":
            q = gguf.quants.quantize(data, gguf.GGMLQuantizationType.Q8_0)
            w.add_tensor(name, q, raw_dtype=gguf.GGMLQuantizationType.Q8_0)
        else:
            w.add_tensor(name, data)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "crates/local-llm/tests/fixtures")
    out.mkdir(parents=True, exist_ok=True)
    tokens, merges = train_bpe(CORPUS, N_MERGES)
    tokens += SPECIALS
    special_ids = [tokens.index(s) for s in SPECIALS]
    tensors = weights(np.random.default_rng(SEED), len(tokens), special_ids)
    n_params = sum(t.size for t in tensors.values())
    for kind in ("q8_0", "f16", "f32"):
        path = out / f"tiny-{kind}.gguf"
        write(path, kind, tokens, merges, tensors)
        print(f"{path}: {path.stat().st_size} bytes, {n_params} parameters, {len(tokens)} tokens")


if __name__ == "__main__":
    main()
