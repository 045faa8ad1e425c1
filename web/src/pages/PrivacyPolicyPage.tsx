import {
  Box,
  Link,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { PRIVACY_POLICY_TITLE } from '../app/privacyPolicy.js';
import { ChipBreadcrumbs } from '../components/ChipBreadcrumbs.js';
import { usePageTitle } from '../components/usePageTitle.js';

/*
 * SPEC §1 privacy policy, made to match what the service really does (D5, D9): hashed
 * passwords, private likes, a public profile with nickname and approved images only, the
 * minimum age of 16, erasure within 5 days, the JSON export, views of anonymous visitors
 * counted by a salted hash of the truncated address.
 */

/**
 * PLACEHOLDER: the data controller's real address must replace this one before going live.
 * It is written once here so that the whole page changes with it.
 */
const PRIVACY_EMAIL = 'privacy@muriparlanti.it';
const LAST_UPDATED = '21 novembre 2026';

interface Section {
  id: string;
  title: string;
  body: ReactNode;
}

function P({ children }: { children: ReactNode }) {
  return (
    <Typography component="p" sx={{ mb: 2, lineHeight: 1.75, color: 'text.secondary' }}>
      {children}
    </Typography>
  );
}

function List({ children }: { children: ReactNode }) {
  return (
    <Box
      component="ul"
      sx={{
        mt: 0,
        mb: 2,
        pl: 3,
        color: 'text.secondary',
        lineHeight: 1.75,
        '& li': { mb: 0.75 },
        '& li::marker': { color: 'secondary.main' },
      }}
    >
      {children}
    </Box>
  );
}

function Strong({ children }: { children: ReactNode }) {
  return (
    <Box component="strong" sx={{ color: 'text.primary', fontWeight: 600 }}>
      {children}
    </Box>
  );
}

function MailLink() {
  return (
    <Link href={`mailto:${PRIVACY_EMAIL}`} color="secondary">
      {PRIVACY_EMAIL}
    </Link>
  );
}

const SECTIONS: Section[] = [
  {
    id: 'titolare',
    title: 'Titolare del trattamento',
    body: (
      <>
        <P>
          Il titolare del trattamento dei dati personali raccolti tramite Muri Parlanti è il gestore
          del servizio Muri Parlanti. Per qualsiasi domanda su questa informativa o sul trattamento
          dei tuoi dati puoi scrivere all&apos;indirizzo <MailLink />.
        </P>
        <P>
          Questa informativa è resa ai sensi degli articoli 13 e 14 del Regolamento (UE) 2016/679
          («GDPR») e del Codice in materia di protezione dei dati personali (D.lgs. 196/2003).
        </P>
      </>
    ),
  },
  {
    id: 'dati-raccolti',
    title: 'Quali dati raccogliamo',
    body: (
      <>
        <P>
          Puoi guardare le immagini, cercarle e visitare i profili senza registrarti. Raccogliamo
          dati personali solo nella misura necessaria a far funzionare il servizio:
        </P>
        <List>
          <li>
            <Strong>Dati di registrazione:</Strong> per creare un account ti chiediamo soltanto un
            nickname (username), un indirizzo e-mail e una password, oltre alla conferma di avere
            almeno 16 anni. La password non viene mai conservata in chiaro: salviamo solo la sua
            impronta crittografica (hash), da cui non è possibile risalire alla password.
          </li>
          <li>
            <Strong>Immagini caricate:</Strong> le foto che carichi, con il titolo e la categoria.
            Per rendere le immagini ricercabili e riconoscere i doppioni, il testo scritto sul muro
            viene letto automaticamente e salvato insieme alla foto.
          </li>
          <li>
            <Strong>Interazioni:</Strong> i «mi piace», i preferiti, le reazioni (triste, non mi
            piace, wow), i download e gli utenti che segui.
          </li>
          <li>
            <Strong>Visualizzazioni:</Strong> quando apri un&apos;immagine la visualizzazione viene
            contata, come spiegato nella sezione dedicata alle statistiche.
          </li>
          <li>
            <Strong>Dati salvati nel tuo browser:</Strong> dopo l&apos;accesso il browser conserva
            il token di sessione e i dati del tuo profilo nella memoria locale (localStorage), per
            non doverti chiedere le credenziali a ogni pagina. Non usiamo cookie di profilazione né
            strumenti pubblicitari.
          </li>
        </List>
      </>
    ),
  },
  {
    id: 'foto',
    title: 'Le foto: solo scritte, nessuna persona',
    body: (
      <>
        <P>
          Muri Parlanti raccoglie fotografie di scritte sui muri. Le foto non devono ritrarre
          persone né volti: ogni immagine viene controllata da un amministratore prima della
          pubblicazione e quelle in cui compaiono persone vengono rifiutate.
        </P>
        <P>
          Al momento del caricamento ogni foto viene ricodificata e privata di tutti i metadati
          incorporati dal dispositivo, comprese la posizione GPS, la data di scatto e il modello
          della fotocamera.
        </P>
      </>
    ),
  },
  {
    id: 'finalita',
    title: 'Perché trattiamo i dati e su quale base',
    body: (
      <TableContainer component={Paper} variant="outlined" sx={{ mb: 2 }}>
        <Table size="small" aria-label="Finalità e basi giuridiche">
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 700 }}>Finalità</TableCell>
              <TableCell sx={{ fontWeight: 700 }}>Base giuridica</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            <TableRow>
              <TableCell>
                Creare e gestire il tuo account, pubblicare le tue immagini, registrare le tue
                interazioni
              </TableCell>
              <TableCell>Esecuzione del contratto (art. 6, par. 1, lett. b GDPR)</TableCell>
            </TableRow>
            <TableRow>
              <TableCell>
                Inviarti le e-mail sull&apos;esito della revisione delle immagini
              </TableCell>
              <TableCell>Esecuzione del contratto (art. 6, par. 1, lett. b GDPR)</TableCell>
            </TableRow>
            <TableRow>
              <TableCell>
                Moderare i contenuti, prevenire abusi e proteggere la sicurezza del servizio
              </TableCell>
              <TableCell>Legittimo interesse (art. 6, par. 1, lett. f GDPR)</TableCell>
            </TableRow>
            <TableRow>
              <TableCell>
                Contare le visualizzazioni e stilare le classifiche delle immagini
              </TableCell>
              <TableCell>Legittimo interesse (art. 6, par. 1, lett. f GDPR)</TableCell>
            </TableRow>
          </TableBody>
        </Table>
      </TableContainer>
    ),
  },
  {
    id: 'visibilita',
    title: 'Cosa è pubblico e cosa resta privato',
    body: (
      <List>
        <li>
          <Strong>Profilo pubblico:</Strong> mostra solo il tuo nickname e le immagini approvate,
          insieme alla data di iscrizione e ai totali (follower, immagini, «mi piace» ricevuti). Il
          tuo indirizzo e-mail non è mai visibile agli altri utenti.
        </li>
        <li>
          <Strong>«Mi piace» e reazioni:</Strong> sono anonimi. Gli altri vedono soltanto il numero
          complessivo su ogni immagine; l&apos;elenco delle immagini che ti piacciono è visibile
          solo a te, nella scheda «Mi piace» del tuo profilo.
        </li>
        <li>
          <Strong>Immagini in attesa o rifiutate:</Strong> sono visibili solo a te e agli
          amministratori che le esaminano.
        </li>
        <li>
          <Strong>Utenti che segui:</Strong> sul profilo compare solo il numero dei follower, non
          chi sono.
        </li>
      </List>
    ),
  },
  {
    id: 'statistiche',
    title: 'Statistiche e indirizzo IP anonimizzato',
    body: (
      <>
        <P>
          Per le statistiche delle visualizzazioni usiamo un servizio di analisi interno, che non
          condivide dati con terze parti. Una visualizzazione viene contata al massimo una volta al
          giorno per persona e per immagine:
        </P>
        <List>
          <li>se hai effettuato l&apos;accesso, la visualizzazione è collegata al tuo account;</li>
          <li>
            se navighi senza account, l&apos;indirizzo IP viene prima troncato (si conserva solo la
            parte che identifica la rete, /24 per IPv4 e /48 per IPv6) e poi trasformato in
            un&apos;impronta crittografica con un «sale» segreto che cambia ogni giorno.
            L&apos;indirizzo IP in quanto tale non viene mai salvato né scritto nei registri del
            server, e l&apos;impronta non permette di risalire all&apos;indirizzo né di riconoscere
            lo stesso visitatore in giorni diversi.
          </li>
        </List>
      </>
    ),
  },
  {
    id: 'email',
    title: 'Le e-mail che ti inviamo',
    body: (
      <P>
        Usiamo il tuo indirizzo e-mail solo per comunicazioni legate al servizio: in particolare ti
        avvisiamo quando un&apos;immagine che hai caricato viene approvata o rifiutata, con il
        motivo del rifiuto. Non inviamo newsletter né pubblicità e non cediamo il tuo indirizzo a
        nessuno.
      </P>
    ),
  },
  {
    id: 'eta',
    title: 'Età minima',
    body: (
      <P>
        Per registrarti devi avere almeno <Strong>16 anni</Strong>; al momento dell&apos;iscrizione
        ti chiediamo di confermarlo. Se veniamo a sapere che un account appartiene a una persona più
        giovane, lo eliminiamo insieme ai suoi dati.
      </P>
    ),
  },
  {
    id: 'conservazione',
    title: 'Per quanto tempo conserviamo i dati',
    body: (
      <>
        <P>
          Conserviamo i dati del tuo account, le immagini e le interazioni finché l&apos;account
          resta attivo. Quando chiedi la cancellazione, l&apos;account viene disattivato subito e
          tutti i dati collegati (profilo, immagini caricate con i relativi file, interazioni e
          follow) vengono cancellati definitivamente <Strong>entro 5 giorni</Strong> dalla
          richiesta.
        </P>
        <P>
          Le visualizzazioni anonime restano solo come impronta giornaliera non reversibile, usata
          per i conteggi.
        </P>
      </>
    ),
  },
  {
    id: 'elimina-account',
    title: 'Come eliminare il tuo account',
    body: (
      <>
        <P>Puoi eliminare l&apos;account in qualsiasi momento, direttamente dal sito:</P>
        <Box component="ol" sx={{ mt: 0, mb: 2, pl: 3, color: 'text.secondary', lineHeight: 1.75 }}>
          <li>accedi e apri il tuo profilo;</li>
          <li>apri il menu «Opzioni» (l&apos;icona con i tre puntini);</li>
          <li>
            scegli <Strong>«Elimina account»</Strong> e conferma inserendo la tua password.
          </li>
        </Box>
        <P>
          Puoi anche chiedere la cancellazione scrivendo a <MailLink /> dall&apos;indirizzo e-mail
          associato all&apos;account.
        </P>
      </>
    ),
  },
  {
    id: 'scarica-dati',
    title: 'Scaricare una copia dei tuoi dati',
    body: (
      <P>
        Dal menu «Opzioni» del tuo profilo, la voce <Strong>«Scarica i miei dati»</Strong> ti
        consegna subito un file in formato JSON, leggibile anche da altri servizi, con i dati del
        tuo account, le immagini che hai caricato (con stato ed eventuale motivo del rifiuto), le
        tue interazioni e gli utenti che segui.
      </P>
    ),
  },
  {
    id: 'destinatari',
    title: 'Chi può accedere ai dati',
    body: (
      <P>
        I dati sono trattati dagli amministratori di Muri Parlanti, solo per gestire il servizio e
        moderare i contenuti, e dai fornitori tecnici che ospitano il servizio e inviano le e-mail,
        nominati responsabili del trattamento ai sensi dell&apos;art. 28 GDPR. Non vendiamo i tuoi
        dati e non li usiamo per pubblicità.
      </P>
    ),
  },
  {
    id: 'sicurezza',
    title: 'Sicurezza',
    body: (
      <P>
        Le password sono protette con un algoritmo di hashing moderno (Argon2id), le sessioni
        scadono automaticamente dopo 7 giorni e terminano subito quando cambi la password, e le
        immagini non ancora pubblicate sono raggiungibili solo tramite collegamenti firmati e
        temporanei.
      </P>
    ),
  },
  {
    id: 'diritti',
    title: 'I tuoi diritti',
    body: (
      <>
        <P>In base al GDPR puoi esercitare in qualsiasi momento i seguenti diritti:</P>
        <List>
          <li>
            <Strong>accesso</Strong> ai tuoi dati (art. 15);
          </li>
          <li>
            <Strong>rettifica</Strong> dei dati inesatti (art. 16): nickname, e-mail e password si
            modificano anche da «Modifica profilo»;
          </li>
          <li>
            <Strong>cancellazione</Strong> (art. 17);
          </li>
          <li>
            <Strong>limitazione</Strong> del trattamento (art. 18);
          </li>
          <li>
            <Strong>portabilità</Strong> dei dati (art. 20);
          </li>
          <li>
            <Strong>opposizione</Strong> al trattamento basato sul legittimo interesse (art. 21);
          </li>
          <li>
            <Strong>reclamo</Strong> al Garante per la protezione dei dati personali (art. 77),{' '}
            <Link
              href="https://www.garanteprivacy.it"
              target="_blank"
              rel="noopener noreferrer"
              color="secondary"
            >
              www.garanteprivacy.it
            </Link>
            .
          </li>
        </List>
      </>
    ),
  },
  {
    id: 'richieste',
    title: 'Come inviare una richiesta',
    body: (
      <P>
        Per esercitare i tuoi diritti scrivi al titolare del trattamento all&apos;indirizzo{' '}
        <MailLink />, indicando il tuo nickname e scrivendo dall&apos;indirizzo e-mail associato
        all&apos;account, così da permetterci di verificare la tua identità. Rispondiamo senza
        ritardo e comunque entro un mese dalla richiesta.
      </P>
    ),
  },
  {
    id: 'modifiche',
    title: 'Modifiche a questa informativa',
    body: (
      <P>
        Se cambiamo il modo in cui trattiamo i dati aggiorneremo questa pagina e la data qui sotto;
        in caso di modifiche importanti ti avviseremo anche via e-mail.
      </P>
    ),
  },
];

function TableOfContents() {
  return (
    <Box
      component="nav"
      aria-label="Indice"
      sx={{
        display: { xs: 'none', md: 'block' },
        position: 'sticky',
        top: 88,
        alignSelf: 'start',
        maxHeight: 'calc(100vh - 110px)',
        overflowY: 'auto',
      }}
    >
      <Typography
        variant="overline"
        component="h2"
        sx={{ color: 'text.secondary', fontWeight: 700, letterSpacing: 1.2 }}
      >
        Indice
      </Typography>
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}>
        {SECTIONS.map((section, index) => (
          <li key={section.id}>
            <Link
              href={`#${section.id}`}
              underline="none"
              color="text.secondary"
              sx={{
                display: 'flex',
                gap: 1,
                py: 0.6,
                pl: 1.5,
                fontSize: '0.9rem',
                borderLeft: 2,
                borderColor: 'divider',
                '&:hover, &:focus-visible': {
                  color: 'text.primary',
                  borderColor: 'secondary.main',
                },
              }}
            >
              <Box component="span" sx={{ color: 'secondary.main', minWidth: 22 }}>
                {index + 1}.
              </Box>
              {section.title}
            </Link>
          </li>
        ))}
      </Box>
    </Box>
  );
}

/** /privacy-policy: the Italian privacy policy, with a table of contents on wide screens. */
export default function PrivacyPolicyPage() {
  usePageTitle(PRIVACY_POLICY_TITLE);
  return (
    <Box sx={{ maxWidth: 1160, mx: 'auto' }}>
      <ChipBreadcrumbs crumbs={[{ label: 'Privacy' }]} />
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', md: '260px minmax(0, 1fr)' },
          gap: { xs: 0, md: 6 },
        }}
      >
        <TableOfContents />
        <Box component="article" sx={{ maxWidth: 760, minWidth: 0 }}>
          <Typography
            variant="h3"
            component="h1"
            sx={{ fontWeight: 800, mb: 1.5, fontSize: { xs: '2.2rem', md: '3rem' } }}
          >
            {PRIVACY_POLICY_TITLE}
          </Typography>
          <Typography sx={{ fontSize: '1.15rem', lineHeight: 1.7, mb: 1 }}>
            Muri Parlanti raccoglie le scritte sui muri, non le persone. Qui trovi, in parole
            semplici, quali dati trattiamo, perché, per quanto tempo e come puoi controllarli.
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 4 }}>
            Ultimo aggiornamento: {LAST_UPDATED}
          </Typography>
          {SECTIONS.map((section, index) => (
            <Box
              component="section"
              key={section.id}
              id={section.id}
              aria-labelledby={`${section.id}-titolo`}
              sx={{ scrollMarginTop: 88, mb: 4 }}
            >
              <Typography
                variant="h5"
                component="h2"
                id={`${section.id}-titolo`}
                sx={{ fontWeight: 700, mb: 1.5 }}
              >
                <Box component="span" aria-hidden sx={{ color: 'secondary.main', mr: 1 }}>
                  {index + 1}.
                </Box>
                {section.title}
              </Typography>
              {section.body}
            </Box>
          ))}
        </Box>
      </Box>
    </Box>
  );
}
