/*
 * Italian singulars and plurals that the Snowball stemmer keeps apart, joined for search
 * (search.text.ts termOf; docs/READING.md, step 16).
 */

/**
 * Plurals whose stem is not their singular's, each with its singular. From Italian grammar's
 * irregular plurals, not from the gallery's texts. Left out on purpose: 'dei' (also 'of the',
 * one of the commonest words: every text holding it would answer 'dio') and forms that are
 * not plurals ('bel', 'mila').
 */
export const IRREGULAR_PLURALS: ReadonlyMap<string, string> = new Map([
  ['uomini', 'uomo'],
  ['buoi', 'bue'],
  ['templi', 'tempio'],
  ['echi', 'eco'],
  ['ali', 'ala'],
  ['vie', 'via'],
  ['superfici', 'superficie'],
]);

/**
 * Nouns and adjectives in '-ano' whose Snowball stem loses the '-ano' as if it were a verb's
 * ending ('milano' → 'mil', 'partigiano' → 'partig') while their plural keeps it ('milani'
 * → 'milan'). Searched and indexed as their plural, they meet it and their feminine forms
 * ('partigiana', 'partigiane' → 'partigian').
 *
 * Derived once from the word list of docs/READING.md step 3 (@zxcvbn-ts/language-it, its
 * common words and Wikipedia's): every word in '-ano' whose '-ani' form is also a word of the
 * list and stems apart from it. Verbs' third persons plural ('parlano', 'amano') have no such
 * '-ani' word and keep meeting their verb ('parla'); the few words that are both a noun and a
 * verb ('capitano', 'isolano', 'popolano') are taken as the noun. Kept here rather than
 * computed at start, because the list costs the server 13 MB and a tenth of a second to load;
 * `test/search.test.ts` derives it again from the list and fails when the two part.
 */
export const NOUNS_IN_ANO: ReadonlySet<string> = new Set(
  (
    'aeroplano africano afroamericano agostiniano allontano altipiano altopiano americano ' +
    'anglicano anziano appiano ariano artigiano asciugamano australiano biplano birmano ' +
    'brasiliano bresciano caetano campano capitano cappellano carmelitano castano castellano ' +
    'castigliano catalano cipriano colombiano coreano cortigiano cristiano cubano damiano ' +
    'democristiano diocesano domenicano egiziano emiliano fabiano francescano friulano ' +
    'gabbiano gaetano georgiano germano giordano giuliano giustiniano graziano guardiano ' +
    'indiano indonesiano iraniano isolano israeliano italiano lituano lodigiano lontano lucano ' +
    'luciano luterano mantovano marchigiano mariano marziano meridiano messicano ' +
    'metropolitano milano montano musulmano napoletano nordamericano nordcoreano oceano ' +
    'ottomano padovano pagano pantano partigiano persiano pisano popolano prussiano ' +
    'quotidiano reggiano repubblicano romano salesiano sciamano sebastiano siciliano ' +
    'siracusano siriano soprano sovrano spartano stefano suburbano sudafricano sudamericano ' +
    'sudcoreano sultano texano tibetano timpano titano toscano trapano troiano uragano ' +
    'vaticano veneziano veterano vulcano'
  ).split(' '),
);

/**
 * Italian function words as the fold leaves them (search.text.ts foldForSearch): articles,
 * prepositions simple and joined with an article, their elided forms ('l', 'dell', 'd' of
 * "l'amore", "dell'anima", "d'amore"), and the commonest conjunctions ('e' is also 'è'). Half
 * of the walls hold one of them, so a photo holding only these words of a query tells nothing
 * of what was looked for: search's fallback (search.service.ts, looserMatches) does not count
 * them towards the half of the words it asks for. Not used for the strict search, which still
 * asks for every word, nor for indexing.
 */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    'il lo la i gli le l un uno una ' +
    'di a da in con su per tra fra d ' +
    'del dello della dei degli delle dell al allo alla ai agli alle all ' +
    'dal dallo dalla dai dagli dalle dall nel nello nella nei negli nelle nell ' +
    'sul sullo sulla sui sugli sulle sull col coi ' +
    'e ed o od ma che'
  ).split(' '),
);
