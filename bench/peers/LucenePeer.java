// bench/peers: Lucene 4.10 on issueloc's pre-tokenised function documents (see lucene.ts beside it).
//
//   java -cp CLASSES:lucene-core.jar:lucene-analyzers-common.jar LucenePeer DOCS QUERIES ROUNDS WARMUP TOP K1 B W1,W2,...
//
// DOCS: one document a line, its fields separated by tabs, each field's tokens by spaces (already
// tokenised by issueloc: whitespace splitting gives the same tokens). QUERIES: one query a line,
// `term<TAB>weight<TAB>term<TAB>weight…`. Each query is a disjunction of one TermQuery per term and
// field, boosted by the term's weight times the field's weight, scored by BM25Similarity(K1, B):
// Lucene's usual multi-field BM25 (per-field saturation, summed), collected top TOP.
// Prints `index MILLIS DOCS` once, then per query of the timed rounds
// `q ROUND QUERY WALL_NANOS CPU_NANOS HITS` (CPU: this thread's, ThreadMXBean).
import java.io.BufferedReader;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.RAMDirectory;
import org.apache.lucene.util.Version;

public final class LucenePeer {
  public static void main(String[] args) throws Exception {
    String docsPath = args[0], queriesPath = args[1];
    int rounds = Integer.parseInt(args[2]), warmup = Integer.parseInt(args[3]), top = Integer.parseInt(args[4]);
    float k1 = Float.parseFloat(args[5]), b = Float.parseFloat(args[6]);
    String[] ws = args[7].split(",");
    float[] fieldWeight = new float[ws.length];
    String[] field = new String[ws.length];
    for (int f = 0; f < ws.length; f++) { fieldWeight[f] = Float.parseFloat(ws[f]); field[f] = "f" + f; }

    BM25Similarity similarity = new BM25Similarity(k1, b);
    Analyzer whitespace = new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String name, Reader reader) {
        Tokenizer t = new WhitespaceTokenizer(Version.LUCENE_4_10_4, reader);
        return new TokenStreamComponents(t);
      }
    };
    long t0 = System.nanoTime();
    RAMDirectory dir = new RAMDirectory();
    IndexWriterConfig config = new IndexWriterConfig(Version.LUCENE_4_10_4, whitespace);
    config.setSimilarity(similarity);
    config.setRAMBufferSizeMB(256);
    int docs = 0;
    try (IndexWriter writer = new IndexWriter(dir, config);
         BufferedReader in = Files.newBufferedReader(Paths.get(docsPath), StandardCharsets.UTF_8)) {
      for (String line; (line = in.readLine()) != null; ) {
        String[] parts = line.split("\t", -1);
        Document doc = new Document();
        for (int f = 0; f < field.length; f++) doc.add(new TextField(field[f], f < parts.length ? parts[f] : "", Field.Store.NO));
        writer.addDocument(doc);
        docs++;
      }
      writer.forceMerge(1);
    }
    System.out.println("index " + (System.nanoTime() - t0) / 1000000 + " " + docs);

    List<String[]> queries = new ArrayList<>();
    for (String line : Files.readAllLines(Paths.get(queriesPath), StandardCharsets.UTF_8)) queries.add(line.isEmpty() ? new String[0] : line.split("\t"));
    BooleanQuery.setMaxClauseCount(Integer.MAX_VALUE);
    DirectoryReader reader = DirectoryReader.open(dir);
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setSimilarity(similarity);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    StringBuilder out = new StringBuilder();
    for (int round = 0; round < warmup + rounds; round++) {
      for (int q = 0; q < queries.size(); q++) {
        String[] terms = queries.get(q);
        long w0 = System.nanoTime(), c0 = cpu.getCurrentThreadCpuTime();
        BooleanQuery query = new BooleanQuery(true);
        for (int i = 0; i + 1 < terms.length; i += 2) {
          float weight = Float.parseFloat(terms[i + 1]);
          for (int f = 0; f < field.length; f++) {
            if (fieldWeight[f] <= 0) continue;
            TermQuery tq = new TermQuery(new Term(field[f], terms[i]));
            tq.setBoost(weight * fieldWeight[f]);
            query.add(tq, BooleanClause.Occur.SHOULD);
          }
        }
        TopDocs hits = searcher.search(query, top);
        long w1 = System.nanoTime(), c1 = cpu.getCurrentThreadCpuTime();
        if (round >= warmup) out.append("q ").append(round - warmup).append(' ').append(q).append(' ')
          .append(w1 - w0).append(' ').append(c1 - c0).append(' ').append(hits.totalHits).append('\n');
      }
    }
    System.out.print(out);
    reader.close();
  }
}
