/**
 * The placeholder the server hands out until the gallery screens land (issue 5): it proves the
 * single origin end to end, in the product's language and theme.
 */
export function App() {
  return (
    <main className="placeholder">
      <h1>Muri Parlanti</h1>
      <p>Le scritte sui muri d’Italia, fotografate e raccolte.</p>
      <p className="muted">La galleria sta per aprire: torna a trovarci presto.</p>
    </main>
  );
}
