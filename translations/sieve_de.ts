<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>main</name>
    <message>
        <source>Workbench for curating SFT corpora of GPU kernels</source>
        <translation>Werkbank zum Kuratieren von SFT-Korpora aus GPU-Kernels</translation>
    </message>
    <message>
        <source>Corpus file to open</source>
        <translation>Zu öffnende Korpusdatei</translation>
    </message>
    <message>
        <source>Measure startup, sorting, filtering and event-loop stalls on CORPUS, print JSON and quit</source>
        <translation>Start, Sortieren, Filtern und Blockaden der Ereignisschleife auf KORPUS messen, als JSON ausgeben und beenden</translation>
    </message>
    <message>
        <source>Start, show the window, and quit once it has been painted (for package checks)</source>
        <translation>Starten, das Fenster zeigen und beenden, sobald es gezeichnet ist (für Paketprüfungen)</translation>
    </message>
</context>
<context>
    <name>sieve::net::Sampler</name>
    <message>
        <source>endpoint error (retry %1 in %2 ms, no attempt used): %3</source>
        <translation>Fehler des Endpunkts (Wiederholung %1 in %2 ms, kein Versuch verbraucht): %3</translation>
    </message>
    <message>
        <source>cannot store a sample in %1: %2</source>
        <translation>Probe kann nicht in %1 gespeichert werden: %2</translation>
    </message>
</context>
<context>
    <name>sieve::net::TeacherPass</name>
    <message>
        <source>endpoint error (retry %1 in %2 ms): %3</source>
        <translation>Fehler des Endpunkts (neuer Versuch %1 in %2 ms): %3</translation>
    </message>
</context>
<context>
    <name>sieve::ui::CliProcess</name>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Could not start %1: %2</source>
        <translation>%1 konnte nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>sieve-cli crashed.</source>
        <translation>sieve-cli ist abgestürzt.</translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation>Fertig.</translation>
    </message>
    <message>
        <source>Failed: the command could not do its work.</source>
        <translation>Fehlgeschlagen: Der Befehl konnte seine Arbeit nicht erledigen.</translation>
    </message>
    <message>
        <source>Failed: sieve-cli did not understand the command line.</source>
        <translation>Fehlgeschlagen: sieve-cli hat die Befehlszeile nicht verstanden.</translation>
    </message>
    <message>
        <source>Finished, but some input records were rejected (see the report).</source>
        <translation>Fertig, aber einige Eingabedatensätze wurden abgewiesen (siehe Bericht).</translation>
    </message>
    <message>
        <source>Interrupted; the work done so far is saved and can be resumed.</source>
        <translation>Unterbrochen; die bisherige Arbeit ist gespeichert und kann fortgesetzt werden.</translation>
    </message>
    <message>
        <source>sieve-cli exited with code %1.</source>
        <translation>sieve-cli wurde mit Code %1 beendet.</translation>
    </message>
</context>
<context>
    <name>sieve::ui::ClusterMemberModel</name>
    <message>
        <source>%1 (representative)</source>
        <translation>%1 (Repräsentant)</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>Probe</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>Ähnlichkeit</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Speedup</source>
        <translation>Beschleunigung</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Begutachtung</translation>
    </message>
</context>
<context>
    <name>sieve::ui::ClusterModel</name>
    <message>
        <source>(all tasks)</source>
        <translation>(alle Aufgaben)</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>Mitglieder</translation>
    </message>
    <message>
        <source>Representative</source>
        <translation>Repräsentant</translation>
    </message>
</context>
<context>
    <name>sieve::ui::ClusterPage</name>
    <message>
        <source>&amp;Compare Selected</source>
        <translation>Auswahl &amp;vergleichen</translation>
    </message>
    <message>
        <source>No duplicate clusters in this corpus yet. Run &lt;tt&gt;sieve-cli dedup&lt;/tt&gt; to find them.</source>
        <translation>Dieses Korpus enthält noch keine Duplikat-Cluster. Führen Sie &lt;tt&gt;sieve-cli dedup&lt;/tt&gt; aus, um sie zu finden.</translation>
    </message>
    <message>
        <source>Open two or three selected members side by side</source>
        <translation>Zwei oder drei ausgewählte Mitglieder nebeneinander öffnen</translation>
    </message>
    <message>
        <source>&amp;Keep Representative, Reject the Rest</source>
        <translation>&amp;Repräsentant behalten, den Rest ablehnen</translation>
    </message>
    <message>
        <source>Keep the selected member (else the cluster&apos;s representative) and reject the others: duplicates as &quot;duplicate&quot;, failing ones as &quot;incorrect&quot; (undo with Ctrl+Z)</source>
        <translation>Das gewählte Mitglied (sonst den Repräsentanten des Clusters) behalten und die anderen ablehnen: Duplikate als „Duplikat“, fehlschlagende als „falsch“ (rückgängig mit Strg+Z)</translation>
    </message>
    <message>
        <source>&amp;Keep #%1, Reject the Rest</source>
        <translation>#%1 &amp;behalten, den Rest ablehnen</translation>
    </message>
    <message>
        <source>Keeps #%1 %2 (%3); select another member to keep it instead</source>
        <translation>Behält #%1 %2 (%3); wählen Sie ein anderes Mitglied, um stattdessen dieses zu behalten</translation>
    </message>
    <message>
        <source>not verified</source>
        <translation>nicht verifiziert</translation>
    </message>
</context>
<context>
    <name>sieve::ui::CodeEditor</name>
    <message>
        <source>Find…</source>
        <translation>Suchen …</translation>
    </message>
    <message>
        <source>Go to Line…</source>
        <translation>Gehe zu Zeile …</translation>
    </message>
    <message>
        <source>Go to Line</source>
        <translation>Gehe zu Zeile</translation>
    </message>
    <message>
        <source>Line:</source>
        <translation>Zeile:</translation>
    </message>
    <message>
        <source>Wrap Long Lines</source>
        <translation>Lange Zeilen umbrechen</translation>
    </message>
</context>
<context>
    <name>sieve::ui::ComparisonView</name>
    <message>
        <source>Reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>Show the task&apos;s PyTorch reference module next to the samples</source>
        <translation>Das PyTorch-Referenzmodul der Aufgabe neben den Proben zeigen</translation>
    </message>
    <message>
        <source>Sync Scrolling</source>
        <translation>Gemeinsam scrollen</translation>
    </message>
    <message>
        <source>Find in code (Enter: next, Shift+Enter: previous)</source>
        <translation>Im Code suchen (Enter: weiter, Umschalt+Enter: zurück)</translation>
    </message>
    <message>
        <source> · %1×</source>
        <translation> · %1×</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n line(s) differ from A</source>
        <translation>
            <numerusform>%1: %n Zeile weicht von A ab</numerusform>
            <numerusform>%1: %n Zeilen weichen von A ab</numerusform>
        </translation>
    </message>
    <message>
        <source>PyTorch module</source>
        <translation>PyTorch-Modul</translation>
    </message>
    <message>
        <source>Previous change (Alt+Up)</source>
        <translation>Vorige Änderung (Alt+Hoch)</translation>
    </message>
    <message>
        <source>Next change (Alt+Down)</source>
        <translation>Nächste Änderung (Alt+Runter)</translation>
    </message>
    <message numerus="yes">
        <source>%n change(s)</source>
        <translation>
            <numerusform>%n Änderung</numerusform>
            <numerusform>%n Änderungen</numerusform>
        </translation>
    </message>
    <message>
        <source>change %1 of %2</source>
        <translation>Änderung %1 von %2</translation>
    </message>
    <message numerus="yes">
        <source>%n more selected sample(s) not shown: at most %1 side by side</source>
        <translation>
            <numerusform>%n weitere ausgewählte Probe nicht gezeigt: höchstens %1 nebeneinander</numerusform>
            <numerusform>%n weitere ausgewählte Proben nicht gezeigt: höchstens %1 nebeneinander</numerusform>
        </translation>
    </message>
    <message>
        <source>Select a sample to see its code, or two or three to compare them side by side.</source>
        <translation>Wählen Sie eine Probe, um ihren Code zu sehen, oder zwei oder drei, um sie nebeneinander zu vergleichen.</translation>
    </message>
</context>
<context>
    <name>sieve::ui::CorpusFile</name>
    <message>
        <source>Could not copy %1 to %2 before updating it; nothing was changed. Is the folder writable, and is there room on the disk?</source>
        <translation>%1 konnte vor der Aktualisierung nicht nach %2 kopiert werden; nichts wurde geändert. Ist der Ordner beschreibbar und ist auf dem Datenträger Platz?</translation>
    </message>
    <message>
        <source>Could not copy %1 before updating the corpus; nothing was changed.</source>
        <translation>%1 konnte vor der Aktualisierung des Korpus nicht kopiert werden; nichts wurde geändert.</translation>
    </message>
    <message>
        <source>%1 is in use by another program (an import or a verification run?). Open it again when that has finished.</source>
        <translation>%1 wird von einem anderen Programm benutzt (ein Import oder eine Verifikation?). Öffnen Sie es erneut, wenn dieses fertig ist.</translation>
    </message>
    <message>
        <source>%1 cannot be opened for writing. Check that the file and its folder are writable.</source>
        <translation>%1 kann nicht zum Schreiben geöffnet werden. Prüfen Sie, ob die Datei und ihr Ordner beschreibbar sind.</translation>
    </message>
    <message>
        <source>%1 was written by a newer Sieve. Open it with that version.</source>
        <translation>%1 wurde von einem neueren Sieve geschrieben. Öffnen Sie es mit dieser Version.</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>%1 is not a corpus: it is not a file Sieve made. Open a .sieve file, or make one with File › New Corpus and import into it. (If it was a corpus, it has been overwritten.)</source>
        <translation>%1 ist kein Korpus: Die Datei stammt nicht von Sieve. Öffnen Sie eine .sieve-Datei oder legen Sie mit Datei › Neues Korpus eine an und importieren Sie hinein. (War es ein Korpus, wurde es überschrieben.)</translation>
    </message>
    <message>
        <source>%1 is damaged%2. Sieve neither reads nor writes a damaged corpus, so nothing was changed.

To save what is readable: sqlite3 &apos;%3&apos; .recover | sqlite3 recovered.sieve, then open recovered.sieve; or import the corpus again from its sources.</source>
        <translation>%1 ist beschädigt%2. Sieve liest und schreibt kein beschädigtes Korpus; nichts wurde geändert.

So retten Sie, was lesbar ist: sqlite3 &apos;%3&apos; .recover | sqlite3 recovered.sieve, dann recovered.sieve öffnen; oder das Korpus erneut aus seinen Quellen importieren.</translation>
    </message>
    <message>
        <source>%1 is in use by %2. Open it again when that has finished.</source>
        <translation>%1 wird gerade von %2 benutzt. Öffnen Sie es erneut, wenn dies fertig ist.</translation>
    </message>
    <message>
        <source>an import</source>
        <translation>einem Import</translation>
    </message>
    <message>
        <source>a verification run</source>
        <translation>einem Verifikationslauf</translation>
    </message>
    <message>
        <source>%1 (%2, process %3)</source>
        <translation>%1 (%2, Prozess %3)</translation>
    </message>
</context>
<context>
    <name>sieve::ui::DetailsPane</name>
    <message>
        <source>The teacher gave no reasoning trace for this sample.</source>
        <translation>Das Lehrermodell hat für diese Probe keine Begründung geliefert.</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Gutachter</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Entscheidung</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>&amp;Code</source>
        <translation>&amp;Code</translation>
    </message>
    <message>
        <source>R&amp;easoning</source>
        <translation>&amp;Begründung</translation>
    </message>
    <message>
        <source>&amp;Verdict</source>
        <translation>&amp;Urteil</translation>
    </message>
    <message>
        <source>&amp;Timing</source>
        <translation>&amp;Zeiten</translation>
    </message>
    <message>
        <source>&amp;History</source>
        <translation>&amp;Verlauf</translation>
    </message>
    <message>
        <source>cleared</source>
        <translation>zurückgesetzt</translation>
    </message>
    <message>
        <source>&amp;PTX/SASS</source>
        <translation>&amp;PTX/SASS</translation>
    </message>
    <message>
        <source>Which of the compared samples the reasoning, verdict, timing and history tabs show</source>
        <translation>Welche der verglichenen Proben die Reiter Begründung, Urteil, Zeiten und Verlauf zeigen</translation>
    </message>
    <message>
        <source>no confidence</source>
        <translation>ohne Konfidenz</translation>
    </message>
    <message>
        <source>confidence %1</source>
        <translation>Konfidenz %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Judge (a suggestion, not the verdict):&lt;/b&gt; %1, %2, model %3</source>
        <translation>&lt;b&gt;Judge (ein Vorschlag, nicht das Urteil):&lt;/b&gt; %1, %2, Modell %3</translation>
    </message>
    <message>
        <source>unreadable answer: %1</source>
        <translation>unlesbare Antwort: %1</translation>
    </message>
    <message>
        <source>quoted lines (%1)</source>
        <translation>zitierte Zeilen (%1)</translation>
    </message>
    <message>
        <source>Rubric %1, SHA-256 %2</source>
        <translation>Rubrik %1, SHA-256 %2</translation>
    </message>
    <message>
        <source>delegated to: %1</source>
        <translation>delegiert an: %1</translation>
    </message>
    <message>
        <source>[not that line of the code]</source>
        <translation>[nicht diese Zeile des Codes]</translation>
    </message>
    <message>
        <source>&lt;b&gt;Teacher-written reasoning&lt;/b&gt; (not the sample&apos;s own): model %1, prompt %2 (SHA-256 %3), %4</source>
        <translation>&lt;b&gt;Vom Teacher geschriebene Begründung&lt;/b&gt; (nicht die des Samples): Modell %1, Prompt %2 (SHA-256 %3), %4</translation>
    </message>
    <message>
        <source>PTX and SASS are shown for CUDA samples only: Triton kernels are compiled by Triton when they run</source>
        <translation>PTX und SASS gibt es nur für CUDA-Proben: Triton-Kernels übersetzt Triton erst, wenn sie laufen</translation>
    </message>
</context>
<context>
    <name>sieve::ui::EmptyState</name>
    <message>
        <source>%1 &lt;a href=&quot;#clear&quot;&gt;Clear filter&lt;/a&gt;</source>
        <translation>%1 &lt;a href=&quot;#clear&quot;&gt;Filter zurücksetzen&lt;/a&gt;</translation>
    </message>
</context>
<context>
    <name>sieve::ui::ExportDialog</name>
    <message>
        <source>&amp;Preview</source>
        <translation>&amp;Vorschau</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Exportieren</translation>
    </message>
    <message>
        <source>Export SFT Data</source>
        <translation>SFT-Daten exportieren</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>Kennzahl</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Messages from sieve-cli appear here.</source>
        <translation>Meldungen von sieve-cli erscheinen hier.</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <source>Export Into</source>
        <translation>Exportieren nach</translation>
    </message>
    <message>
        <source>Output folder:</source>
        <translation>Zielordner:</translation>
    </message>
    <message>
        <source>What the export will contain (from a dry run):</source>
        <translation>Was der Export enthalten wird (aus einem Probelauf):</translation>
    </message>
    <message>
        <source>Choose an output folder first.</source>
        <translation>Wählen Sie zuerst einen Zielordner.</translation>
    </message>
    <message>
        <source>Running a dry run…</source>
        <translation>Probelauf läuft …</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>Export läuft …</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>nicht gesetzt</translation>
    </message>
    <message>
        <source>Chat messages (system, user, assistant)</source>
        <translation>Chat-Nachrichten (System, Nutzer, Assistent)</translation>
    </message>
    <message>
        <source>Prompt and completion</source>
        <translation>Prompt und Vervollständigung</translation>
    </message>
    <message>
        <source>In its own field (reasoning_content)</source>
        <translation>In einem eigenen Feld (reasoning_content)</translation>
    </message>
    <message>
        <source>In &lt;think&gt; tags before the answer</source>
        <translation>In &lt;think&gt;-Tags vor der Antwort</translation>
    </message>
    <message>
        <source>Left out</source>
        <translation>Weggelassen</translation>
    </message>
    <message>
        <source>Passed the verifier, not rejected</source>
        <translation>Vom Prüfer bestanden, nicht abgelehnt</translation>
    </message>
    <message>
        <source>Accepted by a reviewer</source>
        <translation>Von einem Gutachter angenommen</translation>
    </message>
    <message>
        <source>Passed and accepted</source>
        <translation>Bestanden und angenommen</translation>
    </message>
    <message>
        <source>keep every member of a cluster</source>
        <translation>jedes Mitglied eines Clusters behalten</translation>
    </message>
    <message>
        <source>The fraction of tasks held out for validation: by task, never by sample, stratified by difficulty.</source>
        <translation>Der Anteil der Aufgaben, der zur Validierung zurückgehalten wird: nach Aufgabe, nie nach Probe, nach Schwierigkeit geschichtet.</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>keine Grenze</translation>
    </message>
    <message>
        <source>Accepted, passing, fastest and earliest samples are kept first.</source>
        <translation>Angenommene, bestandene, schnellste und früheste Proben werden zuerst behalten.</translation>
    </message>
    <message>
        <source>Every hard task, and this fraction of the easy tasks, drawn with the seed.</source>
        <translation>Jede schwere Aufgabe und dieser Anteil der leichten Aufgaben, mit dem Seed gezogen.</translation>
    </message>
    <message>
        <source>e.g. category=gemm:50 level=*:200</source>
        <translation>z. B. category=gemm:50 level=*:200</translation>
    </message>
    <message>
        <source>At most N tasks per category or level value (F=V:N, V may be *), separated by spaces.</source>
        <translation>Höchstens N Aufgaben je Kategorie oder Stufe (F=V:N, V darf * sein), durch Leerzeichen getrennt.</translation>
    </message>
    <message>
        <source>no budget</source>
        <translation>kein Budget</translation>
    </message>
    <message>
        <source>Rows over this many tokens are left out and listed in the manifest.</source>
        <translation>Zeilen mit mehr Tokens werden weggelassen und im Manifest aufgeführt.</translation>
    </message>
    <message>
        <source>tokenizer.json of the model to train</source>
        <translation>tokenizer.json des zu trainierenden Modells</translation>
    </message>
    <message>
        <source>Preview to see how many rows the export will have.</source>
        <translation>Vorschau zeigt, wie viele Zeilen der Export haben wird.</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>Tokenizer</translation>
    </message>
    <message>
        <source>Tokenizer (*.json)</source>
        <translation>Tokenizer (*.json)</translation>
    </message>
    <message>
        <source>sieve-cli export failed: see the messages below.</source>
        <translation>sieve-cli export ist fehlgeschlagen: siehe die Meldungen unten.</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>Format:</translation>
    </message>
    <message>
        <source>Reasoning:</source>
        <translation>Begründung:</translation>
    </message>
    <message>
        <source>Validation share:</source>
        <translation>Validierungsanteil:</translation>
    </message>
    <message>
        <source>Prompt tags:</source>
        <translation>Prompt-Tags:</translation>
    </message>
    <message>
        <source>Token budget per row:</source>
        <translation>Token-Budget je Zeile:</translation>
    </message>
    <message>
        <source>Tokenizer:</source>
        <translation>Tokenizer:</translation>
    </message>
    <message>
        <source>Samples that:</source>
        <translation>Proben, die:</translation>
    </message>
    <message>
        <source>Duplicates:</source>
        <translation>Duplikate:</translation>
    </message>
    <message>
        <source>Samples per task:</source>
        <translation>Proben je Aufgabe:</translation>
    </message>
    <message>
        <source>Share of easy tasks:</source>
        <translation>Anteil leichter Aufgaben:</translation>
    </message>
    <message>
        <source>Quotas:</source>
        <translation>Quoten:</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>Seed:</translation>
    </message>
    <message>
        <source>Quotas: &quot;%1&quot; is not F=V:N (F is category or level, N a number of tasks).</source>
        <translation>Quoten: „%1“ ist nicht F=V:N (F ist category oder level, N eine Anzahl Aufgaben).</translation>
    </message>
    <message>
        <source>Tokenizer: a token budget needs the tokenizer.json that counts the tokens.</source>
        <translation>Tokenizer: Ein Token-Budget braucht die tokenizer.json, die die Tokens zählt.</translation>
    </message>
    <message>
        <source>sieve-cli printed no manifest: see the messages below.</source>
        <translation>sieve-cli hat kein Manifest ausgegeben: siehe die Meldungen unten.</translation>
    </message>
    <message>
        <source>%1 train rows and %2 validation rows from %3 samples of %4 tasks; %5 left out (listed under excluded).</source>
        <translation>%1 Trainings- und %2 Validierungszeilen aus %3 Proben von %4 Aufgaben; %5 weggelassen (unter excluded aufgeführt).</translation>
    </message>
    <message>
        <source>Written: %1</source>
        <translation>Geschrieben: %1</translation>
    </message>
    <message>
        <source>Conversational prompt and completion (TRL)</source>
        <translation>Konversationeller Prompt mit Vervollständigung (TRL)</translation>
    </message>
    <message>
        <source>Preference pairs as messages (DPO)</source>
        <translation>Präferenzpaare als Nachrichten (DPO)</translation>
    </message>
    <message>
        <source>Preference pairs as text</source>
        <translation>Präferenzpaare als Text</translation>
    </message>
    <message>
        <source>keep sandbox, sham and harness-patching failures as rejected answers</source>
        <translation>Sandbox-, Schein- und Harness-Manipulationsfehler als abgelehnte Antworten behalten</translation>
    </message>
    <message>
        <source>no bar</source>
        <translation>keine Schwelle</translation>
    </message>
    <message>
        <source>Keep samples at least this many times faster than eager PyTorch (GPU timings; samples without them are left out).</source>
        <translation>Proben behalten, die mindestens so viel schneller als PyTorch (eager) sind (GPU-Zeiten; Proben ohne sie werden weggelassen).</translation>
    </message>
    <message>
        <source>no cap</source>
        <translation>keine Obergrenze</translation>
    </message>
    <message>
        <source>Pairs per task:</source>
        <translation>Paare je Aufgabe:</translation>
    </message>
    <message>
        <source>Negatives:</source>
        <translation>Negativbeispiele:</translation>
    </message>
    <message>
        <source>Speedup at least:</source>
        <translation>Beschleunigung mindestens:</translation>
    </message>
    <message>
        <source>Reasoning: a text format has no field for it; choose &lt;think&gt; tags or none.</source>
        <translation>Begründung: Ein Textformat hat kein Feld dafür; wählen Sie &lt;think&gt;-Tags oder keine.</translation>
    </message>
</context>
<context>
    <name>sieve::ui::Figures</name>
    <message>
        <source>1 sample</source>
        <translation>1 Probe</translation>
    </message>
    <message>
        <source>%1 samples</source>
        <translation>%1 Proben</translation>
    </message>
    <message>
        <source>1 task</source>
        <translation>1 Aufgabe</translation>
    </message>
    <message>
        <source>%1 tasks</source>
        <translation>%1 Aufgaben</translation>
    </message>
    <message>
        <source>1 row</source>
        <translation>1 Zeile</translation>
    </message>
    <message>
        <source>%1 rows</source>
        <translation>%1 Zeilen</translation>
    </message>
    <message>
        <source>%1 of %2 reviewed · %3 accepted · %4 rejected · %5 to do</source>
        <translation>%1 von %2 begutachtet · %3 angenommen · %4 abgelehnt · %5 offen</translation>
    </message>
</context>
<context>
    <name>sieve::ui::ImportDialog</name>
    <message>
        <source>Import Tasks and Samples</source>
        <translation>Aufgaben und Proben importieren</translation>
    </message>
    <message>
        <source>&amp;Files</source>
        <translation>&amp;Dateien</translation>
    </message>
    <message>
        <source>A &amp;KernelBench folder</source>
        <translation>Ein &amp;KernelBench-Ordner</translation>
    </message>
    <message>
        <source>&amp;Choose…</source>
        <translation>&amp;Auswählen …</translation>
    </message>
    <message>
        <source>F&amp;ormat:</source>
        <translation>F&amp;ormat:</translation>
    </message>
    <message>
        <source>Nothing chosen yet</source>
        <translation>Noch nichts ausgewählt</translation>
    </message>
    <message>
        <source>How the files are read (docs/FORMATS.md); preset from the first file&apos;s columns</source>
        <translation>Wie die Dateien gelesen werden (docs/FORMATS.md); vorbelegt aus den Spalten der ersten Datei</translation>
    </message>
    <message>
        <source>KernelBench Folder</source>
        <translation>KernelBench-Ordner</translation>
    </message>
    <message>
        <source>Corpus records (*.jsonl *.json *.py);;All files (*)</source>
        <translation>Korpus-Datensätze (*.jsonl *.json *.py);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Choose the root of a KernelBench checkout or a levelN folder.</source>
        <translation>Wählen Sie die Wurzel eines KernelBench-Checkouts oder einen levelN-Ordner.</translation>
    </message>
    <message>
        <source>Choose one or more files of one format.</source>
        <translation>Wählen Sie eine oder mehrere Dateien eines Formats.</translation>
    </message>
    <message>
        <source>Every levelN/ID_Name.py problem under the folder becomes a task.</source>
        <translation>Jedes Problem levelN/ID_Name.py unter dem Ordner wird eine Aufgabe.</translation>
    </message>
    <message>
        <source>1 file, read as %1.</source>
        <translation>1 Datei, gelesen als %1.</translation>
    </message>
    <message>
        <source>%1 files, read as %2.</source>
        <translation>%1 Dateien, gelesen als %2.</translation>
    </message>
</context>
<context>
    <name>sieve::ui::MainWindow</name>
    <message>
        <source>Sieve</source>
        <translation>Sieve</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Begutachtung</translation>
    </message>
    <message>
        <source>Clusters</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>Statistik</translation>
    </message>
    <message>
        <source>Verification: %1</source>
        <translation>Verifikation: %1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open Corpus…</source>
        <translation>Korpus ö&amp;ffnen …</translation>
    </message>
    <message>
        <source>Open Corpus</source>
        <translation>Korpus öffnen</translation>
    </message>
    <message>
        <source>Sieve corpora (*.sieve *.db *.sqlite);;All files (*)</source>
        <translation>Sieve-Korpora (*.sieve *.db *.sqlite);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>&amp;Importieren …</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>&amp;Exportieren …</translation>
    </message>
    <message>
        <source>&amp;Close Corpus</source>
        <translation>Korpus &amp;schließen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <source>&amp;Review</source>
        <translation>Be&amp;gutachtung</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>V&amp;erify</source>
        <translation>&amp;Prüfen</translation>
    </message>
    <message>
        <source>Verify &amp;Selected</source>
        <translation>&amp;Auswahl prüfen</translation>
    </message>
    <message>
        <source>Verify All &amp;Pending</source>
        <translation>Alle &amp;offenen prüfen</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>Ab&amp;brechen</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Clusters</source>
        <translation>&amp;Cluster</translation>
    </message>
    <message>
        <source>&amp;Statistics</source>
        <translation>&amp;Statistik</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>Review Steps</source>
        <translation>Begutachtungsschritte</translation>
    </message>
    <message>
        <source>&lt;opened corpus&gt;</source>
        <translation>&lt;geöffnetes Korpus&gt;</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Sieve</source>
        <translation>&amp;Über Sieve</translation>
    </message>
    <message>
        <source>About Sieve</source>
        <translation>Über Sieve</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Sieve %1&lt;/h3&gt;&lt;p&gt;A workbench for curating SFT corpora of GPU kernels.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Sieve %1&lt;/h3&gt;&lt;p&gt;Eine Werkbank zum Kuratieren von SFT-Korpora aus GPU-Kernels.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Needs a sieve-cli with the &apos;%1&apos; command</source>
        <translation>Benötigt ein sieve-cli mit dem Befehl „%1“</translation>
    </message>
    <message>
        <source>The corpus %1 does not exist.</source>
        <translation>Das Korpus %1 existiert nicht.</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet …</translation>
    </message>
    <message>
        <source>%1 — Sieve</source>
        <translation>%1 — Sieve</translation>
    </message>
    <message>
        <source>Verifying…</source>
        <translation>Verifikation läuft …</translation>
    </message>
    <message>
        <source>&amp;Corpus</source>
        <translation>&amp;Korpus</translation>
    </message>
    <message>
        <source>Sample from &amp;Teacher…</source>
        <translation>Proben vom &amp;Lehrermodell …</translation>
    </message>
    <message>
        <source>&amp;Undo %1</source>
        <translation>&amp;Rückgängig: %1</translation>
    </message>
    <message>
        <source>&amp;Redo %1</source>
        <translation>&amp;Wiederholen: %1</translation>
    </message>
    <message>
        <source>Import one format at a time: %1 is not %2.</source>
        <translation>Bitte immer nur ein Format importieren: %1 ist nicht %2.</translation>
    </message>
    <message>
        <source>duplicate of #%1 (cluster %2)</source>
        <translation>Duplikat von #%1 (Cluster %2)</translation>
    </message>
    <message>
        <source>Verifying: %1</source>
        <translation>Verifiziere: %1</translation>
    </message>
    <message>
        <source>New Corpus</source>
        <translation>Neues Korpus</translation>
    </message>
    <message>
        <source>Sieve corpora (*.sieve)</source>
        <translation>Sieve-Korpora (*.sieve)</translation>
    </message>
    <message>
        <source>&amp;New Corpus…</source>
        <translation>&amp;Neues Korpus…</translation>
    </message>
    <message>
        <source>&amp;Maximise Comparison</source>
        <translation>Vergleich &amp;maximieren</translation>
    </message>
    <message>
        <source>%1 was not opened: it was left as it is.</source>
        <translation>%1 wurde nicht geöffnet; die Datei blieb unverändert.</translation>
    </message>
    <message>
        <source>%1 exists already: choose another name, or open it with File › Open.</source>
        <translation>%1 existiert bereits: Wählen Sie einen anderen Namen oder öffnen Sie die Datei mit Datei › Öffnen.</translation>
    </message>
    <message>
        <source>Could not create %1: %2</source>
        <translation>%1 konnte nicht angelegt werden: %2</translation>
    </message>
    <message>
        <source>Last run: %1</source>
        <translation>Letzter Lauf: %1</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Sieve&lt;/h2&gt;&lt;p&gt;No corpus is open.&lt;/p&gt;&lt;p&gt;Open one with &lt;b&gt;File › Open&lt;/b&gt; (Ctrl+O), make a new one with &lt;b&gt;File › New Corpus&lt;/b&gt; (Ctrl+N),&lt;br&gt;or drop a corpus file onto this window.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Sieve&lt;/h2&gt;&lt;p&gt;Kein Korpus ist geöffnet.&lt;/p&gt;&lt;p&gt;Öffnen Sie eines mit &lt;b&gt;Datei › Öffnen&lt;/b&gt; (Strg+O), legen Sie mit &lt;b&gt;Datei › Neues Korpus&lt;/b&gt; (Strg+N) ein neues an&lt;br&gt;oder ziehen Sie eine Korpusdatei auf dieses Fenster.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Policy</source>
        <translation>&amp;Richtlinie</translation>
    </message>
    <message>
        <source>&amp;Strict: every op of the forward in the sample&apos;s own kernels</source>
        <translation>&amp;Streng: jede Operation des Forward in den eigenen Kernels der Probe</translation>
    </message>
    <message>
        <source>&amp;KernelBench: a torch core op may stay, the rest in own kernels</source>
        <translation>&amp;KernelBench: eine Torch-Kernoperation darf bleiben, der Rest in eigenen Kernels</translation>
    </message>
    <message>
        <source>Checking the tasks&apos; references…</source>
        <translation>Die Referenzen der Aufgaben werden geprüft …</translation>
    </message>
    <message>
        <source>Check &amp;Tasks</source>
        <translation>&amp;Aufgaben prüfen</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>%1 was made by an older Sieve (corpus version %2) and cannot be updated here: it is read-only (%3). Copy it somewhere writable and open the copy.</source>
        <translation>%1 stammt von einem älteren Sieve (Korpusversion %2) und kann hier nicht aktualisiert werden: Es ist schreibgeschützt (%3). Kopieren Sie es an einen beschreibbaren Ort und öffnen Sie die Kopie.</translation>
    </message>
    <message>
        <source>Opening %1, which is in use by %2…</source>
        <translation>%1 wird geöffnet; es wird gerade von %2 benutzt …</translation>
    </message>
    <message>
        <source>%1 is read-only (%2): reviews, imports and verification are off. To review it, copy it somewhere writable and open the copy.</source>
        <translation>%1 ist schreibgeschützt (%2): Begutachtung, Import und Verifikation sind aus. Zum Begutachten kopieren Sie es an einen beschreibbaren Ort und öffnen die Kopie.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Read-only.&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Schreibgeschützt.&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;In use by %1.&lt;/b&gt; What it writes shows after it has finished (View › Refresh); reviews made meanwhile wait for it.</source>
        <translation>&lt;b&gt;In Benutzung durch %1.&lt;/b&gt; Was dort geschrieben wird, erscheint, wenn es fertig ist (Ansicht › Aktualisieren); Begutachtungen warten solange.</translation>
    </message>
    <message>
        <source>Importing %1 as %2…</source>
        <translation>%1 wird als %2 importiert …</translation>
    </message>
    <message>
        <source>Importing %1 files as %2…</source>
        <translation>%1 Dateien werden als %2 importiert …</translation>
    </message>
    <message>
        <source>Nothing to verify: no sample is pending.</source>
        <translation>Nichts zu prüfen: Keine Probe ist offen.</translation>
    </message>
    <message>
        <source>Saving the review waits: another program is writing to the corpus…</source>
        <translation>Das Speichern der Begutachtung wartet: Ein anderes Programm schreibt gerade in das Korpus …</translation>
    </message>
    <message>
        <source>Saving the review waits for %1, which is writing to the corpus…</source>
        <translation>Das Speichern der Begutachtung wartet auf %1, das gerade in das Korpus schreibt …</translation>
    </message>
    <message>
        <source>The corpus is in use by %1; review again when it has finished.</source>
        <translation>Das Korpus wird gerade von %1 benutzt; begutachten Sie erneut, wenn dies fertig ist.</translation>
    </message>
</context>
<context>
    <name>sieve::ui::Prompts</name>
    <message>
        <source>Unfinished Verification</source>
        <translation>Unvollendete Verifikation</translation>
    </message>
    <message>
        <source>An earlier verification run of this corpus was stopped before it finished.</source>
        <translation>Ein früherer Verifikationslauf dieses Korpus wurde vor seinem Ende angehalten.</translation>
    </message>
    <message>
        <source>Resume it (it keeps its own selection), or abandon it and start the run you asked for?</source>
        <translation>Ihn fortsetzen (er behält seine eigene Auswahl) oder ihn aufgeben und den gewünschten Lauf starten?</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>Start a &amp;New Run</source>
        <translation>&amp;Neuen Lauf starten</translation>
    </message>
    <message>
        <source>Update the Corpus?</source>
        <translation>Korpus aktualisieren?</translation>
    </message>
    <message>
        <source>%1 was made by an older Sieve (corpus version %2). To open it, Sieve updates it to version %3.</source>
        <translation>%1 wurde von einem älteren Sieve erstellt (Korpusversion %2). Um es zu öffnen, aktualisiert Sieve es auf Version %3.</translation>
    </message>
    <message>
        <source>A copy of the file as it is now is kept as %1. Older Sieve versions cannot open the updated file.</source>
        <translation>Eine Kopie der Datei in ihrem jetzigen Zustand wird als %1 aufbewahrt. Ältere Sieve-Versionen können die aktualisierte Datei nicht öffnen.</translation>
    </message>
    <message>
        <source>&amp;Update and Open</source>
        <translation>&amp;Aktualisieren und öffnen</translation>
    </message>
    <message>
        <source>Verify %1?</source>
        <translation>%1 prüfen?</translation>
    </message>
    <message>
        <source>This run verifies %1.</source>
        <translation>Dieser Lauf prüft %1.</translation>
    </message>
    <message>
        <source>It runs in the background; Verify › Cancel stops it and a later run resumes where it stopped.</source>
        <translation>Er läuft im Hintergrund; Prüfen › Abbrechen hält ihn an, und ein späterer Lauf setzt dort fort.</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>&amp;Starten</translation>
    </message>
</context>
<context>
    <name>sieve::ui::PtxView</name>
    <message>
        <source>No CUDA source in this sample.</source>
        <translation>Diese Probe enthält keinen CUDA-Quelltext.</translation>
    </message>
    <message>
        <source>No CUDA kernel in this sample (backend: %1).</source>
        <translation>Diese Probe enthält keinen CUDA-Kernel (Backend: %1).</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>Regs</source>
        <translation>Reg.</translation>
    </message>
    <message>
        <source>Spill st.</source>
        <translation>Spill Schr.</translation>
    </message>
    <message>
        <source>Spill ld.</source>
        <translation>Spill Les.</translation>
    </message>
    <message>
        <source>Stack</source>
        <translation>Stack</translation>
    </message>
    <message>
        <source>Shared</source>
        <translation>Shared</translation>
    </message>
    <message>
        <source>Const.</source>
        <translation>Konst.</translation>
    </message>
    <message>
        <source>Barriers</source>
        <translation>Barrieren</translation>
    </message>
    <message>
        <source>Registers per thread</source>
        <translation>Register pro Thread</translation>
    </message>
    <message>
        <source>Bytes spilled to local memory (stores)</source>
        <translation>In den lokalen Speicher ausgelagerte Bytes (Schreiben)</translation>
    </message>
    <message>
        <source>Bytes spilled to local memory (loads)</source>
        <translation>In den lokalen Speicher ausgelagerte Bytes (Lesen)</translation>
    </message>
    <message>
        <source>Stack frame bytes</source>
        <translation>Bytes im Stack-Frame</translation>
    </message>
    <message>
        <source>Static shared memory bytes</source>
        <translation>Bytes statischer Shared Memory</translation>
    </message>
    <message>
        <source>Constant bank bytes (parameters, compiler constants)</source>
        <translation>Bytes in Konstantenbänken (Parameter, Compiler-Konstanten)</translation>
    </message>
    <message>
        <source>Named barriers</source>
        <translation>Benannte Barrieren</translation>
    </message>
    <message>
        <source>PTX</source>
        <translation>PTX</translation>
    </message>
    <message>
        <source>SASS</source>
        <translation>SASS</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>%1 for %2 (cached)</source>
        <translation>%1 für %2 (aus dem Cache)</translation>
    </message>
    <message>
        <source>%1 for %2 in %3 ms</source>
        <translation>%1 für %2 in %3 ms</translation>
    </message>
    <message>
        <source>No PTX: the unit did not compile.</source>
        <translation>Kein PTX: die Einheit ließ sich nicht übersetzen.</translation>
    </message>
    <message>
        <source>No SASS: there is no CUBIN.</source>
        <translation>Kein SASS: es gibt kein CUBIN.</translation>
    </message>
    <message>
        <source>Precheck: host code and torch includes were removed before NVRTC compiled the device code.
</source>
        <translation>Vorprüfung: Host-Code und torch-Includes wurden entfernt, bevor NVRTC den Device-Code übersetzte.
</translation>
    </message>
    <message>
        <source>NVRTC %1, %2; module: %3 bytes __constant__, %4 bytes __device__ globals.
</source>
        <translation>NVRTC %1, %2; Modul: %3 Bytes __constant__, %4 Bytes globale __device__-Variablen.
</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A: %1</translation>
    </message>
    <message>
        <source>Select one to three samples of a task to see what NVRTC makes of their CUDA.</source>
        <translation>Wählen Sie ein bis drei Proben einer Aufgabe, um zu sehen, was NVRTC aus ihrem CUDA macht.</translation>
    </message>
    <message>
        <source>None of the selected samples holds a CUDA kernel.</source>
        <translation>Keine der gewählten Proben enthält einen CUDA-Kernel.</translation>
    </message>
    <message>
        <source>Compiling for %1 with NVRTC…</source>
        <translation>Übersetze mit NVRTC für %1…</translation>
    </message>
    <message>
        <source>Compiled for %1 with NVRTC; figures per kernel from ptxas (bytes). Bold: differs from A.</source>
        <translation>Mit NVRTC für %1 übersetzt; Werte pro Kernel von ptxas (Bytes). Fett: weicht von A ab.</translation>
    </message>
</context>
<context>
    <name>sieve::ui::Review</name>
    <message>
        <source>accepted</source>
        <translation>angenommen</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>abgelehnt</translation>
    </message>
</context>
<context>
    <name>sieve::ui::ReviewBar</name>
    <message>
        <source>This corpus is read-only: nothing was saved.</source>
        <translation>Dieses Korpus ist schreibgeschützt: nichts wurde gespeichert.</translation>
    </message>
    <message>
        <source>Incorrect output</source>
        <translation>Falsche Ausgabe</translation>
    </message>
    <message>
        <source>Sham or fallback kernel</source>
        <translation>Schein- oder Ausweich-Kernel</translation>
    </message>
    <message>
        <source>Not faster than the reference</source>
        <translation>Nicht schneller als die Referenz</translation>
    </message>
    <message>
        <source>Duplicate of another sample</source>
        <translation>Duplikat einer anderen Probe</translation>
    </message>
    <message>
        <source>Reasoning does not match the code</source>
        <translation>Begründung passt nicht zum Code</translation>
    </message>
    <message>
        <source>Unreadable code</source>
        <translation>Unleserlicher Code</translation>
    </message>
    <message>
        <source>Unsafe or forbidden code</source>
        <translation>Unsicherer oder verbotener Code</translation>
    </message>
    <message>
        <source>The task itself is broken</source>
        <translation>Die Aufgabe selbst ist fehlerhaft</translation>
    </message>
    <message>
        <source>Other (see the note)</source>
        <translation>Anderes (siehe Notiz)</translation>
    </message>
    <message>
        <source>No reason</source>
        <translation>Kein Grund</translation>
    </message>
    <message>
        <source>%1  %2</source>
        <translation>%1  %2</translation>
    </message>
    <message>
        <source>&amp;Accept</source>
        <translation>&amp;Annehmen</translation>
    </message>
    <message>
        <source>&amp;Reject</source>
        <translation>A&amp;blehnen</translation>
    </message>
    <message>
        <source>&amp;Next Unreviewed</source>
        <translation>&amp;Nächste unbegutachtete</translation>
    </message>
    <message>
        <source>&amp;Previous Unreviewed</source>
        <translation>&amp;Vorherige unbegutachtete</translation>
    </message>
    <message>
        <source>Accept All Matching the Filter…</source>
        <translation>Alle zum Filter passenden annehmen …</translation>
    </message>
    <message>
        <source>Reject All Matching the Filter…</source>
        <translation>Alle zum Filter passenden ablehnen …</translation>
    </message>
    <message>
        <source>Accept the selected samples (A)</source>
        <translation>Die ausgewählten Proben annehmen (A)</translation>
    </message>
    <message>
        <source>Reject the selected samples with the chosen reason (R)</source>
        <translation>Die ausgewählten Proben mit dem gewählten Grund ablehnen (R)</translation>
    </message>
    <message numerus="yes">
        <source>The review of %n sample(s) could not be saved: %1
The table shows what the corpus holds; the undo history was cleared.</source>
        <translation>
            <numerusform>Die Begutachtung von %n Probe konnte nicht gespeichert werden: %1
Die Tabelle zeigt, was das Korpus enthält; der Rückgängig-Verlauf wurde gelöscht.</numerusform>
            <numerusform>Die Begutachtung von %n Proben konnte nicht gespeichert werden: %1
Die Tabelle zeigt, was das Korpus enthält; der Rückgängig-Verlauf wurde gelöscht.</numerusform>
        </translation>
    </message>
    <message>
        <source>Reject: why? Press 1–9 for the reason (A accepts instead).</source>
        <translation>Ablehnen: warum? Drücken Sie 1–9 für den Grund (A nimmt stattdessen an).</translation>
    </message>
    <message>
        <source>Review Several Samples</source>
        <translation>Mehrere Proben begutachten</translation>
    </message>
    <message numerus="yes">
        <source>Mark %n sample(s) as %1?</source>
        <translation>
            <numerusform>%n Probe als %1 markieren?</numerusform>
            <numerusform>%n Proben als %1 markieren?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n of them hold a decision a person made; it would be replaced.</source>
        <translation>
            <numerusform>Eine davon trägt die Entscheidung einer Person; sie würde ersetzt.</numerusform>
            <numerusform>%n davon tragen die Entscheidung einer Person; sie würden ersetzt.</numerusform>
        </translation>
    </message>
    <message>
        <source>Change All %1</source>
        <translation>Alle %1 ändern</translation>
    </message>
    <message>
        <source>Only the %1 Unreviewed</source>
        <translation>Nur die %1 unbegutachteten</translation>
    </message>
    <message>
        <source>Review Samples Not Shown</source>
        <translation>Nicht angezeigte Proben begutachten</translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s) are selected but only %1 shown. Mark all of them as %2?</source>
        <translation>
            <numerusform>%n Probe ist ausgewählt, aber nur %1 angezeigt. Alle als %2 markieren?</numerusform>
            <numerusform>%n Proben sind ausgewählt, aber nur %1 angezeigt. Alle als %2 markieren?</numerusform>
        </translation>
    </message>
    <message>
        <source>Note (N; Enter keeps it, Esc drops it)</source>
        <translation>Notiz (N; Enter behält sie, Esc verwirft sie)</translation>
    </message>
    <message>
        <source>Write a &amp;Note</source>
        <translation>&amp;Notiz schreiben</translation>
    </message>
    <message>
        <source>No sample is shown: select one in the table first.</source>
        <translation>Keine Probe angezeigt: Wählen Sie zuerst eine in der Tabelle.</translation>
    </message>
    <message>
        <source>Nothing to change: every sample is %1 already.</source>
        <translation>Nichts zu ändern: Jede Probe ist bereits %1.</translation>
    </message>
    <message numerus="yes">
        <source>%1 %n sample(s)</source>
        <translation>
            <numerusform>%1 %n Probe</numerusform>
            <numerusform>%1 %n Proben</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sieve::ui::ReviewCommand</name>
    <message>
        <source>%1 sample %2</source>
        <translation>Probe %2 %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 %n sample(s)</source>
        <translation>
            <numerusform>%n Probe %1</numerusform>
            <numerusform>%n Proben %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sieve::ui::SampleModel</name>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>Probe</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Speedup</source>
        <translation>Beschleunigung</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>Teacher</source>
        <translation>Lehrermodell</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Begutachtung</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Gutachter</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
</context>
<context>
    <name>sieve::ui::SamplePane</name>
    <message>
        <source>Any status</source>
        <translation>Jeder Status</translation>
    </message>
    <message>
        <source>Any review</source>
        <translation>Jede Begutachtung</translation>
    </message>
    <message>
        <source>Unreviewed</source>
        <translation>Unbegutachtet</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>Angenommen</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Abgelehnt</translation>
    </message>
    <message>
        <source>Filter by sample or teacher</source>
        <translation>Nach Probe oder Lehrermodell filtern</translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation>Zähle …</translation>
    </message>
    <message>
        <source>Save View</source>
        <translation>Ansicht speichern</translation>
    </message>
    <message>
        <source>Name of the view (filter, sort and columns):</source>
        <translation>Name der Ansicht (Filter, Sortierung und Spalten):</translation>
    </message>
    <message>
        <source>(no saved view)</source>
        <translation>(keine gespeicherte Ansicht)</translation>
    </message>
    <message>
        <source>Saved views: a filter, a sort and the columns shown</source>
        <translation>Gespeicherte Ansichten: ein Filter, eine Sortierung und die gezeigten Spalten</translation>
    </message>
    <message>
        <source>Save View…</source>
        <translation>Ansicht speichern …</translation>
    </message>
    <message>
        <source>Save the filter, sort and columns under a name</source>
        <translation>Filter, Sortierung und Spalten unter einem Namen speichern</translation>
    </message>
    <message>
        <source>Delete View</source>
        <translation>Ansicht löschen</translation>
    </message>
    <message>
        <source>Search code and reasoning</source>
        <translation>Code und Begründung durchsuchen</translation>
    </message>
    <message>
        <source>Samples whose code or reasoning contains this text (any case); within a task it is quick, over a whole large corpus it takes seconds</source>
        <translation>Proben, deren Code oder Begründung diesen Text enthält (Groß-/Kleinschreibung egal); innerhalb einer Aufgabe schnell, über ein ganzes großes Korpus dauert es Sekunden</translation>
    </message>
    <message>
        <source>Any judge</source>
        <translation>Jedes Judge-Urteil</translation>
    </message>
    <message>
        <source>Judge: implements</source>
        <translation>Judge: implementiert</translation>
    </message>
    <message>
        <source>Judge: delegates or wrong</source>
        <translation>Judge: delegiert oder falsch</translation>
    </message>
    <message>
        <source>Judge: unsure</source>
        <translation>Judge: unsicher</translation>
    </message>
    <message>
        <source>Judge: unparseable</source>
        <translation>Judge: unlesbar</translation>
    </message>
    <message>
        <source>Not judged</source>
        <translation>Nicht beurteilt</translation>
    </message>
    <message>
        <source>The teacher judge&apos;s suggestion (sieve-cli judge): whether the code implements the operator itself; never the verifier&apos;s verdict</source>
        <translation>Der Vorschlag des Teacher-Judges (sieve-cli judge): ob der Code den Operator selbst implementiert; nie das Urteil des Verifiers</translation>
    </message>
    <message>
        <source>%1, %2 loaded</source>
        <translation>%1, %2 geladen</translation>
    </message>
    <message>
        <source>No sample matches the filter.</source>
        <translation>Keine Probe passt zum Filter.</translation>
    </message>
    <message>
        <source>The chosen tasks have no samples yet. Sample some with &lt;b&gt;Corpus › Sample from Teacher…&lt;/b&gt; or import them with &lt;b&gt;File › Import…&lt;/b&gt;.</source>
        <translation>Die gewählten Aufgaben haben noch keine Proben. Erzeugen Sie welche mit &lt;b&gt;Korpus › Proben vom Lehrermodell …&lt;/b&gt; oder importieren Sie sie mit &lt;b&gt;Datei › Importieren …&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>No samples in this corpus yet. Import them with &lt;b&gt;File › Import…&lt;/b&gt; (Ctrl+I).</source>
        <translation>Dieses Korpus hat noch keine Proben. Importieren Sie sie mit &lt;b&gt;Datei › Importieren …&lt;/b&gt; (Strg+I).</translation>
    </message>
</context>
<context>
    <name>sieve::ui::SamplerDialog</name>
    <message>
        <source>Sample from Teacher</source>
        <translation>Proben vom Lehrermodell</translation>
    </message>
    <message>
        <source>Base URL of an OpenAI-compatible server (vLLM, SGLang, a hosted API), or its full …/chat/completions URL.</source>
        <translation>Basis-URL eines OpenAI-kompatiblen Servers (vLLM, SGLang, ein gehosteter Dienst) oder seine vollständige …/chat/completions-URL.</translation>
    </message>
    <message>
        <source>Name of the environment variable holding the API key. The key is sent to the endpoint only; it is never shown, logged or stored in the corpus.</source>
        <translation>Name der Umgebungsvariable mit dem API-Schlüssel. Der Schlüssel geht nur an den Endpunkt; er wird nie angezeigt, protokolliert oder im Korpus gespeichert.</translation>
    </message>
    <message>
        <source>Stop at first pass (verify each attempt)</source>
        <translation>Beim ersten Bestehen aufhören (jeden Versuch prüfen)</translation>
    </message>
    <message>
        <source>Keep all samples</source>
        <translation>Alle Proben behalten</translation>
    </message>
    <message>
        <source>endpoint default</source>
        <translation>Vorgabe des Endpunkts</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <source>Stream replies</source>
        <translation>Antworten streamen</translation>
    </message>
    <message>
        <source>new run (the same name resumes a run)</source>
        <translation>neuer Lauf (derselbe Name setzt einen Lauf fort)</translation>
    </message>
    <message>
        <source>Endpoint:</source>
        <translation>Endpunkt:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modell:</translation>
    </message>
    <message>
        <source>API key variable:</source>
        <translation>Variable des API-Schlüssels:</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>Modus:</translation>
    </message>
    <message>
        <source>Samples per task (keep all):</source>
        <translation>Proben je Aufgabe (alle behalten):</translation>
    </message>
    <message>
        <source>Attempts per task (first pass):</source>
        <translation>Versuche je Aufgabe (erstes Bestehen):</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>Temperatur:</translation>
    </message>
    <message>
        <source>Max tokens:</source>
        <translation>Höchstzahl Tokens:</translation>
    </message>
    <message>
        <source>Requests in flight:</source>
        <translation>Laufende Anfragen:</translation>
    </message>
    <message>
        <source>Requests per second:</source>
        <translation>Anfragen pro Sekunde:</translation>
    </message>
    <message>
        <source>Errors in a row that stop the run:</source>
        <translation>Fehler in Folge, die den Lauf beenden:</translation>
    </message>
    <message>
        <source>Extra body fields (JSON):</source>
        <translation>Zusätzliche Felder der Anfrage (JSON):</translation>
    </message>
    <message>
        <source>Run:</source>
        <translation>Lauf:</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Fortschritt</translation>
    </message>
    <message>
        <source>Tasks done:</source>
        <translation>Erledigte Aufgaben:</translation>
    </message>
    <message>
        <source>Attempts stored:</source>
        <translation>Gespeicherte Versuche:</translation>
    </message>
    <message>
        <source>Verifying:</source>
        <translation>In Prüfung:</translation>
    </message>
    <message>
        <source>Tasks passed:</source>
        <translation>Bestandene Aufgaben:</translation>
    </message>
    <message>
        <source>Retries:</source>
        <translation>Wiederholungen:</translation>
    </message>
    <message>
        <source>Errors in a row:</source>
        <translation>Fehler in Folge:</translation>
    </message>
    <message>
        <source>Not started.</source>
        <translation>Nicht gestartet.</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>The endpoint must be an http:// or https:// URL.</source>
        <translation>Der Endpunkt muss eine http://- oder https://-URL sein.</translation>
    </message>
    <message>
        <source>Enter the model name the endpoint serves.</source>
        <translation>Geben Sie den Namen des Modells ein, das der Endpunkt bereitstellt.</translation>
    </message>
    <message>
        <source>Extra body fields must be a JSON object.</source>
        <translation>Zusätzliche Felder müssen ein JSON-Objekt sein.</translation>
    </message>
    <message>
        <source>$%1 is not set; requests carry no API key.</source>
        <translation>$%1 ist nicht gesetzt; die Anfragen tragen keinen API-Schlüssel.</translation>
    </message>
    <message>
        <source>Resuming run %1.</source>
        <translation>Lauf %1 wird fortgesetzt.</translation>
    </message>
    <message>
        <source>Started run %1.</source>
        <translation>Lauf %1 gestartet.</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft …</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>Start nicht möglich: %1</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>%1 (%2 waiting)</source>
        <translation>%1 (%2 wartend)</translation>
    </message>
    <message>
        <source>%1 (%2 this session, %3 requests)</source>
        <translation>%1 (%2 in dieser Sitzung, %3 Anfragen)</translation>
    </message>
    <message>
        <source>%1 (the run stops at %2)</source>
        <translation>%1 (der Lauf endet bei %2)</translation>
    </message>
    <message>
        <source>Run %1 finished in %2 s.</source>
        <translation>Lauf %1 nach %2 s abgeschlossen.</translation>
    </message>
    <message>
        <source>Run %1 finished.</source>
        <translation>Lauf %1 abgeschlossen.</translation>
    </message>
    <message>
        <source>Run %1 stopped.</source>
        <translation>Lauf %1 angehalten.</translation>
    </message>
    <message>
        <source>Run %1 stopped; start it again with the same name to resume.</source>
        <translation>Lauf %1 angehalten; starten Sie ihn mit demselben Namen erneut, um ihn fortzusetzen.</translation>
    </message>
    <message>
        <source>Run %1 failed.</source>
        <translation>Lauf %1 fehlgeschlagen.</translation>
    </message>
    <message>
        <source>Run %1 failed: %2. Fix the cause and start the same run again to resume.</source>
        <translation>Lauf %1 fehlgeschlagen: %2. Beheben Sie die Ursache und starten Sie denselben Lauf erneut, um ihn fortzusetzen.</translation>
    </message>
    <message>
        <source>A run is in progress. Stop it? It can be resumed later.</source>
        <translation>Ein Lauf ist im Gange. Anhalten? Er kann später fortgesetzt werden.</translation>
    </message>
    <message>
        <source>Stopping at the first pass verifies every attempt with sieve-cli, which was not found (%1). Keep all samples instead, or install sieve-cli next to the workbench.</source>
        <translation>Beim ersten Bestehen aufzuhören prüft jeden Versuch mit sieve-cli, das nicht gefunden wurde (%1). Behalten Sie stattdessen alle Proben oder installieren Sie sieve-cli neben der Werkbank.</translation>
    </message>
    <message>
        <source>Streaming:</source>
        <translation>Streaming:</translation>
    </message>
</context>
<context>
    <name>sieve::ui::SettingsDialog</name>
    <message>
        <source>Measure speed</source>
        <translation>Geschwindigkeit messen</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>all, cpu, or a list such as 0,1</source>
        <translation>all, cpu oder eine Liste wie 0,1</translation>
    </message>
    <message>
        <source>the default environment (setup.sh)</source>
        <translation>die Standardumgebung (setup.sh)</translation>
    </message>
    <message>
        <source>https://host:port/v1 (OpenAI chat completions)</source>
        <translation>https://host:port/v1 (OpenAI Chat Completions)</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>Verification</source>
        <translation>Verifikation</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPUs:</translation>
    </message>
    <message>
        <source>Python (SIEVE_PYTHON):</source>
        <translation>Python (SIEVE_PYTHON):</translation>
    </message>
    <message>
        <source>fp32 tolerance (abs., rel.):</source>
        <translation>fp32-Toleranz (abs., rel.):</translation>
    </message>
    <message>
        <source>fp16/bf16 tolerance (abs., rel.):</source>
        <translation>fp16/bf16-Toleranz (abs., rel.):</translation>
    </message>
    <message>
        <source>Seeds per shape:</source>
        <translation>Seeds je Form:</translation>
    </message>
    <message>
        <source>Timing</source>
        <translation>Zeitmessung</translation>
    </message>
    <message>
        <source>At most runs:</source>
        <translation>Höchstens Läufe:</translation>
    </message>
    <message>
        <source>Time budget per sample:</source>
        <translation>Zeitbudget je Probe:</translation>
    </message>
    <message>
        <source>Teacher</source>
        <translation>Lehrermodell</translation>
    </message>
    <message>
        <source>Endpoint:</source>
        <translation>Endpunkt:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modell:</translation>
    </message>
    <message>
        <source>Workbench</source>
        <translation>Werkbank</translation>
    </message>
    <message>
        <source>Reviewer name:</source>
        <translation>Name des Gutachters:</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Sprache:</translation>
    </message>
    <message>
        <source>Name of the environment variable holding the API key; the key itself is never stored.</source>
        <translation>Name der Umgebungsvariable mit dem API-Schlüssel; der Schlüssel selbst wird nie gespeichert.</translation>
    </message>
    <message>
        <source>API key variable:</source>
        <translation>Variable des API-Schlüssels:</translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <source>Architecture (PTX/SASS view):</source>
        <translation>Architektur (PTX/SASS-Ansicht):</translation>
    </message>
    <message>
        <source>Timing:</source>
        <translation>Zeitmessung:</translation>
    </message>
</context>
<context>
    <name>sieve::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Find a command or a key</source>
        <translation>Befehl oder Taste suchen</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Sonstige</translation>
    </message>
</context>
<context>
    <name>sieve::ui::StatsPage</name>
    <message>
        <source>Figure</source>
        <translation>Kennzahl</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>Anteil</translation>
    </message>
    <message>
        <source>Computing statistics…</source>
        <translation>Statistik wird berechnet …</translation>
    </message>
    <message>
        <source>%1 tasks, %2 samples</source>
        <translation>%1 Aufgaben, %2 Proben</translation>
    </message>
    <message numerus="yes">
        <source>%n entries</source>
        <translation>
            <numerusform>%n Eintrag</numerusform>
            <numerusform>%n Einträge</numerusform>
        </translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>Proben</translation>
    </message>
    <message>
        <source>Samples without an answer</source>
        <translation>Proben ohne Antwort</translation>
    </message>
    <message>
        <source>By status</source>
        <translation>Nach Status</translation>
    </message>
    <message>
        <source>By review</source>
        <translation>Nach Begutachtung</translation>
    </message>
    <message>
        <source>By backend</source>
        <translation>Nach Backend</translation>
    </message>
    <message>
        <source>By category</source>
        <translation>Nach Kategorie</translation>
    </message>
    <message>
        <source>By level</source>
        <translation>Nach Stufe</translation>
    </message>
    <message>
        <source>By reason</source>
        <translation>Nach Grund</translation>
    </message>
    <message>
        <source>Per task</source>
        <translation>Je Aufgabe</translation>
    </message>
    <message>
        <source>Verified</source>
        <translation>Geprüft</translation>
    </message>
    <message>
        <source>Passed</source>
        <translation>Bestanden</translation>
    </message>
    <message>
        <source>Tasks verified</source>
        <translation>Geprüfte Aufgaben</translation>
    </message>
    <message>
        <source>pass@k (share of tasks)</source>
        <translation>pass@k (Anteil der Aufgaben)</translation>
    </message>
    <message>
        <source>fast_p (share of tasks)</source>
        <translation>fast_p (Anteil der Aufgaben)</translation>
    </message>
    <message>
        <source>Geometric mean speedup</source>
        <translation>Geometrisches Mittel der Beschleunigung</translation>
    </message>
    <message>
        <source>Samples with a speedup</source>
        <translation>Proben mit Beschleunigung</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>Fehlschläge</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Kennzahlen</translation>
    </message>
    <message>
        <source>Metrics by group</source>
        <translation>Kennzahlen nach Gruppe</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Umfang</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>Angenommen</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Abgelehnt</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Offen</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
</context>
<context>
    <name>sieve::ui::TaskModel</name>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>Proben</translation>
    </message>
    <message>
        <source>Passed</source>
        <translation>Bestanden</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>Angenommen</translation>
    </message>
    <message>
        <source>%1: %2, %3 passed, %4 pending
%5</source>
        <translation>%1: %2, %3 bestanden, %4 offen
%5</translation>
    </message>
    <message>
        <source>Reviewed</source>
        <translation>Begutachtet</translation>
    </message>
</context>
<context>
    <name>sieve::ui::TaskPane</name>
    <message>
        <source>Filter tasks</source>
        <translation>Aufgaben filtern</translation>
    </message>
    <message>
        <source>Any state</source>
        <translation>Jeder Zustand</translation>
    </message>
    <message>
        <source>Solved</source>
        <translation>Gelöst</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Offen</translation>
    </message>
    <message>
        <source>Unsolved</source>
        <translation>Ungelöst</translation>
    </message>
    <message>
        <source>All categories</source>
        <translation>Alle Kategorien</translation>
    </message>
    <message>
        <source>Any level</source>
        <translation>Jede Stufe</translation>
    </message>
    <message>
        <source>Level %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <source>Reading the corpus&apos;s tasks…</source>
        <translation>Die Aufgaben des Korpus werden gelesen …</translation>
    </message>
    <message>
        <source>%1 of %2, %3</source>
        <translation>%1 von %2, %3</translation>
    </message>
    <message>
        <source>No tasks in this corpus yet. Import tasks and samples with &lt;b&gt;File › Import…&lt;/b&gt; (Ctrl+I), or drop files onto the window.</source>
        <translation>Dieses Korpus hat noch keine Aufgaben. Importieren Sie Aufgaben und Proben mit &lt;b&gt;Datei › Importieren …&lt;/b&gt; (Strg+I) oder ziehen Sie Dateien auf das Fenster.</translation>
    </message>
    <message>
        <source>No task matches the filter.</source>
        <translation>Keine Aufgabe passt zum Filter.</translation>
    </message>
</context>
<context>
    <name>sieve::ui::TimingPanel</name>
    <message>
        <source>Candidate</source>
        <translation>Kandidat</translation>
    </message>
    <message>
        <source>Eager</source>
        <translation>Eager</translation>
    </message>
    <message>
        <source>torch.compile</source>
        <translation>torch.compile</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>shape %1</source>
        <translation>Form %1</translation>
    </message>
    <message>
        <source>Speedups of the task&apos;s samples</source>
        <translation>Beschleunigungen der Proben der Aufgabe</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>Proben</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>Proben</translation>
    </message>
    <message>
        <source>Speedups across the corpus</source>
        <translation>Beschleunigungen im ganzen Korpus</translation>
    </message>
    <message numerus="yes">
        <source>%1: speedups (%n measured)</source>
        <translation>
            <numerusform>%1: Beschleunigungen (%n gemessen)</numerusform>
            <numerusform>%1: Beschleunigungen (%n gemessen)</numerusform>
        </translation>
    </message>
    <message>
        <source>speedup from</source>
        <translation>Beschleunigung ab</translation>
    </message>
    <message>
        <source>Median time per shape (hover a bar for its spread)</source>
        <translation>Medianzeit je Form (Balken zeigen beim Überfahren die Streuung)</translation>
    </message>
    <message>
        <source>%1, shape %2: median %3 ms over %4 runs</source>
        <translation>%1, Form %2: Median %3 ms über %4 Läufe</translation>
    </message>
    <message>
        <source>%1, shape %2: median %3 ms, ± %4 ms (standard deviation) over %5 runs</source>
        <translation>%1, Form %2: Median %3 ms, ± %4 ms (Standardabweichung) über %5 Läufe</translation>
    </message>
    <message>
        <source>Not timed: this sample has not been verified yet</source>
        <translation>Nicht gemessen: Diese Probe wurde noch nicht geprüft</translation>
    </message>
    <message>
        <source>Not timed: only samples that pass every check are timed (this one is %1)</source>
        <translation>Nicht gemessen: Nur Proben, die jede Prüfung bestehen, werden gemessen (diese ist %1)</translation>
    </message>
    <message>
        <source>Not timed: the run that verified it had timing turned off</source>
        <translation>Nicht gemessen: Der prüfende Lauf hatte die Zeitmessung abgeschaltet</translation>
    </message>
    <message>
        <source>Verified on the CPU (Triton&apos;s interpreter): no GPU timing. Times there mean nothing; verify on a GPU for speedups</source>
        <translation>Auf der CPU verifiziert (Triton-Interpreter): keine GPU-Zeitmessung. Zeiten dort sagen nichts; für Beschleunigungen auf einer GPU verifizieren</translation>
    </message>
</context>
<context>
    <name>sieve::ui::VerdictPanel</name>
    <message>
        <source>Shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Max abs. error</source>
        <translation>Max. abs. Fehler</translation>
    </message>
    <message>
        <source>Max rel. error</source>
        <translation>Max. rel. Fehler</translation>
    </message>
    <message>
        <source>Mismatches</source>
        <translation>Abweichungen</translation>
    </message>
    <message>
        <source>Non-finite</source>
        <translation>Nicht endlich</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>Status:</translation>
    </message>
    <message>
        <source>Reasons:</source>
        <translation>Gründe:</translation>
    </message>
    <message>
        <source>Message:</source>
        <translation>Meldung:</translation>
    </message>
    <message>
        <source>Proof of work:</source>
        <translation>Arbeitsnachweis:</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>Errors per Shape and Seed</source>
        <translation>Fehler je Form und Seed</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>Not verified yet.</source>
        <translation>Noch nicht verifiziert.</translation>
    </message>
    <message>
        <source> at stage &lt;i&gt;%1&lt;/i&gt;</source>
        <translation> in Stufe &lt;i&gt;%1&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Triton interpreter</source>
        <translation>Triton-Interpreter</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message numerus="yes">
        <source>%n kernel launch(es)</source>
        <translation>
            <numerusform>%n Kernel-Start</numerusform>
            <numerusform>%n Kernel-Starts</numerusform>
        </translation>
    </message>
    <message>
        <source>%1% of GPU time in the sample&apos;s own kernels</source>
        <translation>%1 % der GPU-Zeit in den eigenen Kernels der Probe</translation>
    </message>
    <message>
        <source>speedup %1×</source>
        <translation>Beschleunigung %1×</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>nicht gemessen</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>mismatch</source>
        <translation>Abweichung</translation>
    </message>
    <message>
        <source>verifier</source>
        <translation>Verifizierer</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>unlesbar</translation>
    </message>
    <message>
        <source>%1% of the run time on the CPU in the sample&apos;s own kernels</source>
        <translation>%1 % der Laufzeit auf der CPU in den eigenen Kernels der Probe</translation>
    </message>
</context>
<context>
    <name>sieve::ui::VerifyRunner</name>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source> · %1 per second</source>
        <translation> · %1 pro Sekunde</translation>
    </message>
    <message>
        <source> · about %1 left</source>
        <translation> · noch etwa %1</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>About %1 at the last run&apos;s rate (%2 samples per second).</source>
        <translation>Etwa %1 beim Tempo des letzten Laufs (%2 Proben pro Sekunde).</translation>
    </message>
    <message>
        <source>About %1 at %2 samples per second, a typical rate %3 (no run has been timed here yet).</source>
        <translation>Etwa %1 bei %2 Proben pro Sekunde, einem typischen Tempo %3 (hier wurde noch kein Lauf gemessen).</translation>
    </message>
    <message>
        <source>on the CPU</source>
        <translation>auf der CPU</translation>
    </message>
    <message>
        <source>on one GPU</source>
        <translation>auf einer GPU</translation>
    </message>
    <message>
        <source>%1 verified</source>
        <translation>%1 verifiziert</translation>
    </message>
    <message>
        <source>%1 verified in %2</source>
        <translation>%1 verifiziert in %2</translation>
    </message>
</context>
<context>
    <name>sieve::ui::language</name>
    <message>
        <source>System language</source>
        <translation>Systemsprache</translation>
    </message>
</context>
</TS>
