/** The examples `export-training` writes (src/training-data/export.ts), and the issues it leaves out. */
import type { ChatMessage } from '../llm-rerank/chat-model.js';

/**
 * One contrastive example as mined (the `issueloc` format of the contrastive file): the issue
 * text, the texts of its positives and hard negatives with their ids beside them, and where they
 * come from. Texts are `path\ncode`, as the retriever embeds them. The extra keys make it no
 * library's input as it stands: `contrastiveRows` writes sentence-transformers and
 * FlagEmbedding rows from it (src/training-data/formats.ts).
 */
export interface ContrastiveExample {
  query: string;
  pos: string[];
  neg: string[];
  pos_ids: string[];
  neg_ids: string[];
  issue_id: string;
  repo?: string;
  commit: string;
  /** 1-based rank of the best positive in the retriever's ranking. */
  positive_rank: number;
}

/**
 * One listwise example: a window of candidates in the retriever's order (the best positive
 * moved into the last place when the retriever ranked it below the window), the identifier of
 * the best-ranked positive as target (what SweRankLLM learns to emit first), the full target
 * permutation (positives first), and the chat messages of the reranker's prompt with the
 * target as the assistant's answer, ready for supervised fine-tuning.
 */
export interface ListwiseExample {
  issue_id: string;
  query: string;
  candidates: { identifier: string; id: string; text: string }[];
  positive_ids: string[];
  target: string;
  permutation: string;
  messages: ChatMessage[];
}

/** An issue left out, and why. */
export interface DroppedIssue {
  issue_id: string;
  reason: string;
}
